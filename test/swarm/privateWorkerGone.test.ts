// A window's private worker whose extension host went away (a reload, a closed window, a crashed host: the IPC
// channel closes) while an agent waits for the user's approval. The worker must stop there: the request is not
// answered for the user (no `approval-ended`, above all no `deny` the agent would act on), the agent takes no
// further step, and the swarm is listed interrupted (resumable), not completed. Seconds, on the tiny ChatML model.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startSwarmMethod } from "../../src/protocol/swarmRpc";
import { listSwarmsMethod } from "../../src/protocol/swarmHistoryRpc";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import { exited, forkWorker, type ForkedWorker as Worker } from "./forkedWorker";
import { makeSampleRepo, testRecipe, until } from "./swarmFixtures";

describe("a private worker whose host went away while an agent waits for approval", function () {
  const workers: Worker[] = [];
  afterEach(() => {
    for (const w of workers.splice(0)) {
      if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
      w.peer.dispose();
    }
  });

  it("answers nothing for the user, takes no step after, and leaves the swarm interrupted", async function () {
    const repo = makeSampleRepo();
    const recipeFile = path.join(repo.root, "e2e.json");
    writeFileSync(recipeFile, JSON.stringify(testRecipe(1)));
    const asked = "node --version";
    const finish = { tool: "finish", args: { summary: "ran on after its window left" } };
    const worker = await forkWorker();
    workers.push(worker);
    const { swarmId } = await worker.peer.request(startSwarmMethod, {
      goal: "Wait for an approval",
      recipe: recipeFile,
      modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
      workspace: repo.workspace,
      stateDir: repo.stateDir,
      threads: 1,
      policy: { allow: [], ask: [asked], deny: [] },
      script: {
        agents: {
          "agent-1": [{ tool: "run_command", args: { command: asked } }, finish],
          synthesist: [finish],
        },
      },
    });
    await until(() => worker.events.some((e) => e.type === "approval-request"), "the agent asking", 120_000);
    // What a reload does to this worker: its parent's end of the channel closes.
    worker.child.disconnect();
    assert.equal(await exited(worker.child), 0, "the worker exits with its host");

    const trace = readFileSync(path.join(repo.stateDir, "events.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as SwarmEvent);
    const seen = [...trace, ...worker.events];
    assert.ok(
      trace.some((e) => e.type === "approval-request"),
      "the trace holds the request (written before the host left)",
    );
    assert.deepEqual(
      seen.filter((e) => e.type === "approval-ended"),
      [],
      "nobody answered: not a deny in the user's name",
    );
    assert.deepEqual(
      seen.filter((e) => e.type === "tool-result" || e.type === "swarm-ended"),
      [],
      "no step after the host left: the command is not reported as refused, the agent does not finish",
    );

    // A worker started after (the reloaded window's) lists it interrupted, which offers Resume.
    const next = await forkWorker();
    workers.push(next);
    const listed = await next.peer.request(listSwarmsMethod, { workspace: repo.workspace });
    const past = listed.swarms.find((s) => s.swarmId === swarmId);
    assert.equal(past?.outcome, "interrupted", JSON.stringify(past));
  });
});
