// Selecting a model: the curated catalogue offered, a model that cannot call tools refused before it loads, its
// facts from the worker, the setting saved, and a warning before using a model that does not fit in free memory
// (free memory is set through the test hook; the real check reads os.freemem()).
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import * as vscode from "vscode";
import type { SelectedModel } from "../../../src/host/models/selectModel";
import { requestScreenshot } from "./automationMarkers";
import { swarmboard, waitFor } from "./hostApi";
import { modelPath } from "./reviewSwarmRun";
import { toolCallingModelPath } from "./toolModel";

describe("model selection", function () {
  this.timeout(120_000);

  afterEach(async () => {
    const { hooks } = await swarmboard();
    hooks.reviewSurfaces.models.setFreeMemory(undefined);
    await vscode.workspace
      .getConfiguration("swarmboard")
      .update("modelPath", undefined, vscode.ConfigurationTarget.Global);
  });

  it("offers the catalogue of tool-calling models with download size, KV per cell and agents that fit", async () => {
    const { hooks } = await swarmboard();
    hooks.reviewSurfaces.models.setFreeMemory(64e9);
    const selecting = vscode.commands.executeCommand("swarmboard.selectModel");
    const picker = await waitFor("the model quick pick", () => hooks.reviewSurfaces.picker());
    const labels = picker.items.map((i) => i.label);
    for (const name of ["Qwen2.5-1.5B-Instruct", "Qwen2.5-Coder-7B-Instruct", "Qwen3-8B", "Llama-3.2-3B-Instruct"])
      assert.ok(labels.includes(`$(cloud-download) ${name}`), `${name} offered: ${labels.join(", ")}`);
    const qwen = picker.items.find((i) => i.label.endsWith("Qwen2.5-1.5B-Instruct"));
    assert.match(qwen?.description ?? "", /^1\.0 GiB · /);
    assert.match(
      qwen?.detail ?? "",
      // The pool is sized from free memory unless swarmboard.kvCellsBudget caps it (then: "14 agents fit in 16,384 cells").
      /^hf:Qwen\/Qwen2\.5-1\.5B-Instruct-GGUF:Q4_K_M · 28\.0 KiB KV per cell · (14 agents fit in 16,384 cells \(448 MiB\)|[\d,]+ agents fit in free memory \([\d.]+ [KMG]iB of KV beside the weights\))/,
    );
    picker.hide();
    assert.equal(await selecting, undefined, "nothing is downloaded or selected when the pick is dismissed");
  });

  it("refuses a story model and a template without tools before loading them, the setting unchanged", async () => {
    const { hooks } = await swarmboard();
    // With no free memory a model that would load is questioned first; a refused one never gets that far.
    hooks.reviewSurfaces.models.setFreeMemory(1024);
    const asked = hooks.reviewSurfaces.confirmations.questions().length;
    for (const [name, why] of [
      ["stories260K.gguf", /stories260K\.gguf has no chat template/],
      ["tiny-random-qwen2-chatml.gguf", /chat template has no tool calling/],
    ] as const) {
      const selected = await vscode.commands.executeCommand("swarmboard.selectModel", { path: modelPath(name) });
      assert.equal(selected, undefined, name);
      const line = hooks.log.recentLines().find((l) => l.includes(`could not use ${modelPath(name)}`));
      assert.match(line ?? "", why);
      assert.match(line ?? "", /Pick an instruct model with native tool calling: Qwen2\.5-1\.5B-Instruct/);
      assert.equal(vscode.workspace.getConfiguration("swarmboard").get("modelPath"), "");
    }
    assert.equal(hooks.reviewSurfaces.confirmations.questions().length, asked, "refused before any question or load");
  });

  it("shows the model's facts and saves it to swarmboard.modelPath", async () => {
    const { hooks } = await swarmboard();
    const file = await toolCallingModelPath();
    const selected = await vscode.commands.executeCommand<SelectedModel | undefined>("swarmboard.selectModel", {
      path: file,
    });
    assert.ok(selected, "the model was selected");
    assert.equal(selected.facts.architecture, "llama");
    assert.ok(selected.facts.kvBytesPerCell > 0 && selected.facts.trainContextSize > 0);
    assert.ok(selected.agentsThatFit >= 1, "the test model fits at least one agent in the default budget");
    assert.equal(selected.memory.fits, true);
    assert.equal(vscode.workspace.getConfiguration("swarmboard").get("modelPath"), file);
    assert.ok(
      hooks.log.recentLines().some((l) => l.includes("model: context length:")),
      "the facts are logged",
    );
    // Plain words first: agents, tokens each, memory; the engine's figures wait behind Details.
    const notice = hooks.swarms.notices.recent().at(-1);
    assert.match(
      notice?.text ?? "",
      /^Swarmboard will use .+\.gguf: it fits \d+ agents? with (1k tokens each after a 2k-token shared start|3k tokens each); [\d.]+ [KMG]?B of memory\.$/,
    );
    assert.doesNotMatch(notice?.text ?? "", /cells|layers|heads|KV/, "no engine numbers in the first line");
    assert.deepEqual(notice?.actions, ["Details"]);
    if (vscode.env.uiKind === vscode.UIKind.Web) {
      // Not an assertion: lets the notification finish sliding in so the picture shows it whole.
      await new Promise((r) => setTimeout(r, 1500));
      await requestScreenshot("model-plain-words");
    }
  });

  it("warns before using a model that does not fit in free memory, and keeps the setting when the user declines", async () => {
    const { hooks } = await swarmboard();
    hooks.reviewSurfaces.models.setFreeMemory(1024);
    hooks.reviewSurfaces.confirmations.answerNext(false);
    const asked = hooks.reviewSurfaces.confirmations.questions().length;
    const selected = await vscode.commands.executeCommand("swarmboard.selectModel", {
      path: await toolCallingModelPath(),
    });
    assert.equal(selected, undefined);
    assert.match(hooks.reviewSurfaces.confirmations.questions()[asked] ?? "", /does not fit in free memory/);
    assert.equal(vscode.workspace.getConfiguration("swarmboard").get("modelPath"), "");
  });

  it("refuses a file that is not a GGUF model with a clear message", async () => {
    const { hooks } = await swarmboard();
    const selected = await vscode.commands.executeCommand("swarmboard.selectModel", { path: __filename });
    assert.equal(selected, undefined);
    assert.ok(hooks.log.recentLines().some((l) => l.includes("is not a .gguf file")));
  });

  it("downloads with progress and stops when the download is cancelled (a local server, never the network)", async () => {
    const { hooks } = await swarmboard();
    // A server on this machine that trickles a 4 MiB body, so the download is still running when cancelled. It starts
    // as a GGUF does (magic, version 3): a pull probes the first bytes and refuses anything else before downloading.
    const total = 4 * 1024 * 1024;
    const head = Buffer.alloc(64 * 1024);
    head.write("GGUF", 0, "latin1");
    head.writeUInt32LE(3, 4);
    const server = http.createServer((req, res) => {
      res.writeHead(200, { "content-length": total, "content-type": "application/octet-stream" });
      if (req.method === "HEAD") return void res.end();
      let sent = 0;
      const timer = setInterval(() => {
        if (sent >= total) return void res.end();
        res.write(sent === 0 ? head : Buffer.alloc(64 * 1024));
        sent += 64 * 1024;
      }, 100);
      res.on("close", () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/trickle.gguf`;
      const selecting = vscode.commands.executeCommand("swarmboard.selectModel", { pullUri: uri });
      const progress = await waitFor("download progress", () => hooks.reviewSurfaces.models.pullProgress());
      assert.equal(progress.totalBytes, total);
      assert.equal(hooks.reviewSurfaces.models.cancelPull(), true);
      assert.equal(await selecting, undefined, "a cancelled download selects nothing");
      assert.ok(hooks.log.recentLines().some((l) => l.includes(`the download of ${uri} was cancelled`)));
      assert.equal(vscode.workspace.getConfiguration("swarmboard").get("modelPath"), "");
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
