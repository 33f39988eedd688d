import assert from "node:assert/strict";
import { hostToWebviewSchema, webviewToHostSchema } from "../../../src/protocol/webviewMessages";

describe("webview message schemas", () => {
  it("accept the messages each side sends", () => {
    assert.ok(webviewToHostSchema.safeParse({ type: "ready" }).success);
    assert.ok(
      webviewToHostSchema.safeParse({
        type: "probeReply",
        nonce: "p",
        rendered: { title: "Swarmboard", worker: "Worker: ready (pid 1)" },
      }).success,
    );
    assert.ok(webviewToHostSchema.safeParse({ type: "action", action: "pingWorker" }).success);
    assert.ok(
      hostToWebviewSchema.safeParse({
        type: "state",
        state: { extensionVersion: "0.1.0", worker: { state: "starting" } },
      }).success,
    );
  });

  it("reject what the panel's malformed probe reply sends, and unknown types", () => {
    assert.equal(
      webviewToHostSchema.safeParse({ type: "probeReply", nonce: "p", rendered: "not-an-object" }).success,
      false,
    );
    assert.equal(
      webviewToHostSchema.safeParse({ type: "executeCommand", command: "workbench.action.quit" }).success,
      false,
    );
    assert.equal(webviewToHostSchema.safeParse({ type: "action", action: "workbench.action.quit" }).success, false);
    assert.equal(hostToWebviewSchema.safeParse({ type: "state", state: { worker: "nonsense" } }).success, false);
  });
});
