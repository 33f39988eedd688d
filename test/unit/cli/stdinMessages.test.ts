// Messages typed on `swarmboard run`'s stdin: "@agent-N text" for one agent, any other line for all; blank lines
// and a bare address send nothing, and what was sent or refused is said.
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { listenForMessages, parseMessageLine } from "../../../src/cli/stdinMessages";

describe("messages typed on the CLI's stdin", () => {
  it("addresses one agent with @id and every agent otherwise", () => {
    assert.deepEqual(parseMessageLine("@agent-2  look at src/parse.ts first "), {
      to: "agent-2",
      text: "look at src/parse.ts first",
    });
    assert.deepEqual(parseMessageLine("  stop adding tests, merge what passes"), {
      to: "swarm",
      text: "stop adding tests, merge what passes",
    });
  });

  it("sends nothing for a blank line or an address without text", () => {
    assert.equal(parseMessageLine("   "), undefined);
    assert.equal(parseMessageLine("@agent-2"), undefined);
    assert.equal(parseMessageLine("@agent-2   "), undefined);
  });

  it("sends each line as it comes and says what was sent, refused or not understood", async () => {
    const input = new PassThrough();
    const sent: string[] = [];
    const said: string[] = [];
    const stop = listenForMessages(
      input,
      async (to, text) => {
        if (to === "agent-9") throw new Error('Cannot message "agent-9": no such agent in the swarm.');
        sent.push(`${to}: ${text}`);
        return { id: `user-${sent.length}` };
      },
      (line) => said.push(line),
    );
    input.write("@agent-1 read the failing test\n@agent-9 hello\nfinish soon\n@agent-1\n");
    await new Promise((resolve) => setTimeout(resolve, 50));
    stop();
    assert.deepEqual(sent, ["agent-1: read the failing test", "swarm: finish soon"]);
    assert.deepEqual(said.sort(), [
      'message not sent: Cannot message "agent-9": no such agent in the swarm.',
      "message user-1 sent to agent-1",
      "message user-2 sent to swarm",
      'not sent: write "@agent-N text" for one agent, or text for every agent',
    ]);
  });
});
