// Swarms launched through the real worker process (as VS Code launches them) leave a durable record: a unique
// id, the events trace, recipe and settings in the state dir, and a registry entry that a new worker lists after
// the first one was killed with SIGKILL mid-run ("interrupted"), resumes to the end and cleans up after a dry run.
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { RpcError } from "../../src/core/rpc/rpcPeer";
import {
  modelFactsMethod,
  modelToolCallingMethod,
  startSwarmMethod,
  swarmEventsNotification,
  type StartSwarmParams,
} from "../../src/protocol/swarmRpc";
import { cleanUpSwarmMethod, listSwarmsMethod, resumeSwarmMethod } from "../../src/protocol/swarmHistoryRpc";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { forkWorker, type ForkedWorker } from "./forkedWorker";
import { git, makeSampleRepo, testRecipe, until, type SampleRepo } from "./swarmFixtures";

/** A one-agent swarm whose agent and synthesist finish at once, on the tiny ChatML model, with `knobs`. */
function finishingStart(repo: SampleRepo, recipeFile: string, stateDir: string, knobs: Partial<StartSwarmParams>) {
  const finish = { tool: "finish", args: { summary: "-" } };
  return {
    goal: "Look at the stats module",
    recipe: recipeFile,
    modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
    workspace: repo.workspace,
    stateDir: path.join(repo.root, stateDir),
    threads: 1,
    policy: { allow: [...defaultPolicyRules.allow], ask: [], deny: [...defaultPolicyRules.deny] },
    script: { agents: { "agent-1": [finish], synthesist: [finish] } },
    ...knobs,
  };
}

describe("swarm history through the worker (VS Code's path, the tiny ChatML test model)", function () {
  const workers: ForkedWorker[] = [];
  afterEach(() => {
    for (const w of workers.splice(0)) {
      if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
      w.peer.dispose();
    }
  });

  it("records, lists as interrupted after SIGKILL, resumes to the end, and cleans up after a dry run", async function () {
    const repo = makeSampleRepo();
    const recipeFile = path.join(repo.root, "e2e.json");
    // The worker may ask the person (its resumed turn does).
    const recipe = testRecipe(1);
    const roles = recipe.roles.map((r) => (r.name === "worker" ? { ...r, tools: [...r.tools, "ask_user"] } : r));
    writeFileSync(recipeFile, JSON.stringify({ ...recipe, roles }));
    // Its claim makes its worktree and branch (an agent that never claims nor writes gets neither).
    const claim = { tool: "claim", args: { scope: { paths: ["src/stats.js"] }, text: "median" } };
    const observations = [
      claim,
      ...Array.from({ length: 60 }, (_, i) => ({
        tool: "post_finding",
        args: { kind: "OBSERVED", text: `observation ${i + 1}` },
      })),
    ];
    const first = await forkWorker();
    workers.push(first);
    const { swarmId } = await first.peer.request(startSwarmMethod, {
      goal: "Fix median for even-length lists",
      recipe: recipeFile,
      modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
      workspace: repo.workspace,
      stateDir: repo.stateDir,
      threads: 1,
      policy: { allow: [...defaultPolicyRules.allow], ask: [], deny: [...defaultPolicyRules.deny] },
      askUserTimeoutSeconds: 600,
      script: { agents: { "agent-1": observations, synthesist: [{ tool: "finish", args: { summary: "-" } }] } },
    });
    assert.match(swarmId, /^e2e-\d{8}-\d{6}-[0-9a-f]{4}$/);
    await until(
      () => first.events.filter((e) => e.type === "board-entry").length >= 3,
      "the claim and two findings before the kill",
    );
    first.child.kill("SIGKILL");
    await new Promise((resolve) => first.child.once("exit", resolve));
    const trace = readFileSync(path.join(repo.stateDir, "events.jsonl"), "utf8");
    assert.match(trace, /"type":"swarm-started"/, "the worker wrote the events trace");
    for (const file of ["recipe.json", "settings.json", "board.jsonl"])
      assert.ok(existsSync(path.join(repo.stateDir, file)), `${file} is in the state dir`);

    const second = await forkWorker();
    workers.push(second);
    const listed = await second.peer.request(listSwarmsMethod, { workspace: repo.workspace });
    assert.deepEqual(listed.problems, []);
    const past = listed.swarms.find((s) => s.swarmId === swarmId);
    assert.equal(past?.outcome, "interrupted", JSON.stringify(past));
    assert.ok((past?.findings ?? 0) >= 2, `findings counted: ${past?.findings}`);
    assert.equal(past?.launchedBy, "vscode");

    const saved = JSON.parse(readFileSync(path.join(repo.stateDir, "settings.json"), "utf8"));
    assert.equal(saved.askUserTimeoutSeconds, 600, "the first run saved its questions' wait");

    // The resumed agent asks once (nobody answers within the wait given now, 1 s), then it and the synthesist finish.
    const finish = [{ tool: "finish", args: { summary: "done after the resume" } }];
    const asks = { tool: "ask_user", args: { question: "Is the median right now?" } };
    const script = { agents: { "agent-1": [asks, ...finish], synthesist: finish } };
    const resumed = await second.peer.request(resumeSwarmMethod, {
      workspace: repo.workspace,
      swarmId,
      askUserTimeoutSeconds: 1,
      script,
    });
    assert.deepEqual(resumed, { swarmId, standing: false }, "a batch swarm is resumed as one");
    await until(() => second.events.some((e) => e.type === "swarm-ended"), "the resumed swarm to end");
    const question = second.events.find((e) => e.type === "user-question");
    assert.equal(question?.type === "user-question" && question.timeoutMs, 1_000, "the wait given at the resume");
    const ended = second.events.find((e) => e.type === "user-question-ended");
    assert.equal(ended?.type === "user-question-ended" && ended.outcome, "timed-out");
    let after = (await second.peer.request(listSwarmsMethod, { workspace: repo.workspace })).swarms[0];
    // The record is written just after the session returns, a moment after its swarm-ended event.
    for (let i = 0; i < 50 && after?.outcome === "running"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = (await second.peer.request(listSwarmsMethod, { workspace: repo.workspace })).swarms[0];
    }
    assert.equal(after?.outcome, "completed", after?.reason);
    assert.ok(after?.branches.some((b) => b.branch === `swarmboard/${swarmId}/agent-1`));

    const dry = await second.peer.request(cleanUpSwarmMethod, { workspace: repo.workspace, swarmId });
    assert.equal(dry.removed, undefined, "a dry run removes nothing");
    assert.notEqual(git(repo.workspace, "for-each-ref", `refs/heads/swarmboard/${swarmId}/`), "");
    const done = await second.peer.request(cleanUpSwarmMethod, {
      workspace: repo.workspace,
      swarmId,
      confirm: { unmerged: dry.plan.unmerged, uncommitted: dry.plan.uncommitted },
    });
    assert.ok((done.removed?.branches.length ?? 0) >= 2);
    assert.equal(git(repo.workspace, "for-each-ref", `refs/heads/swarmboard/${swarmId}/`), "");
    assert.equal(git(repo.workspace, "worktree", "list", "--porcelain").split("\nworktree ").length, 1);
    const cleaned = (await second.peer.request(listSwarmsMethod, { workspace: repo.workspace })).swarms[0];
    assert.ok(cleaned?.cleanedUpAt !== undefined, "the record says it was cleaned up");
  });

  it("runs a second swarm beside the first on its pool, and launches a third the moment the first has said it ended", async function () {
    const repo = makeSampleRepo();
    const recipeFile = path.join(repo.root, "e2e.json");
    writeFileSync(recipeFile, JSON.stringify(testRecipe(1)));
    const worker = await forkWorker();
    workers.push(worker);
    const posts = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        tool: "post_finding",
        args: { kind: "OBSERVED", text: `seen ${i + 1}` },
      }));
    const finish = { tool: "finish", args: { summary: "-" } };
    const launch = (stateDir: string, findings: number) =>
      worker.peer.request(startSwarmMethod, {
        goal: "Look at the stats module",
        recipe: recipeFile,
        modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
        workspace: repo.workspace,
        stateDir,
        threads: 1,
        policy: { allow: [...defaultPolicyRules.allow], ask: [], deny: [...defaultPolicyRules.deny] },
        script: { agents: { "agent-1": [...posts(findings), finish], synthesist: [finish] } },
      });
    const first = await launch(path.join(repo.root, "state-1"), 80);
    await until(() => worker.events.some((e) => e.type === "board-entry"), "the first swarm's first finding");
    // Beside the running one (the worker's table of swarms): on the same model and settings it joins the first's
    // pool, and its trunk (the same charter, tools and repository) forks the start it shares with the first's.
    const beside = await launch(path.join(repo.root, "state-beside"), 1);
    await until(
      () => worker.events.some((e) => e.type === "swarm-ended" && e.swarmId === beside.swarmId),
      "the swarm beside to end",
    );
    const besideStart = worker.events.find((e) => e.type === "swarm-started" && e.swarmId === beside.swarmId);
    const besideEnd = worker.events.find((e) => e.type === "swarm-ended" && e.swarmId === beside.swarmId);
    assert.equal(besideEnd?.type === "swarm-ended" && besideEnd.outcome, "completed", JSON.stringify(besideEnd));
    assert.ok(besideStart?.type === "swarm-started", "the swarm beside started");
    const reused = besideStart.trunkReusedTokens ?? 0;
    assert.ok(reused >= besideStart.trunkTokens * 0.5, `forked ${reused} of ${besideStart.trunkTokens} trunk tokens`);
    assert.equal(
      worker.events.some((e) => e.type === "swarm-ended" && e.swarmId === first.swarmId),
      false,
      "the first swarm still runs",
    );
    // Asked for in the same turn as the end arrives: the first swarm may still be closing its context and worktrees
    // (here it mostly has closed by then; test/unit/worker/swarmSlot.test.ts fixes the order by hand).
    const second = new Promise<{ swarmId: string }>((resolve, reject) =>
      worker.peer.onNotification(swarmEventsNotification, ({ swarmId, events }) => {
        if (swarmId === first.swarmId && events.some((e) => e.type === "swarm-ended"))
          launch(path.join(repo.root, "state-2"), 1).then(resolve, reject);
      }),
    );
    const { swarmId } = await second;
    assert.notEqual(swarmId, first.swarmId);
    await until(
      () => worker.events.some((e) => e.type === "swarm-ended" && e.swarmId === swarmId),
      "the second swarm to end",
    );
    const ended = worker.events.find((e) => e.type === "swarm-ended" && e.swarmId === swarmId);
    assert.equal(ended?.type === "swarm-ended" && ended.outcome, "completed");
  });

  /** A sample repository with a one-agent recipe file, and a worker. */
  async function oneAgentSetUp() {
    const repo = makeSampleRepo();
    const recipeFile = path.join(repo.root, "e2e.json");
    writeFileSync(recipeFile, JSON.stringify(testRecipe(1)));
    const worker = await forkWorker();
    workers.push(worker);
    return { repo, recipeFile, worker };
  }

  it("ends a swarm whose set-up fails after the start returned on the event stream, failed, with the reason", async () => {
    const { repo, recipeFile, worker } = await oneAgentSetUp();
    // 256 cells (the least a launch takes) cannot hold the shared context (thousands of tokens): found only when the trunk is decoded.
    const { swarmId } = await worker.peer.request(
      startSwarmMethod,
      finishingStart(repo, recipeFile, "state-unfit", { kvCells: 256 }),
    );
    await until(
      () => worker.events.some((e) => e.type === "swarm-ended" && e.swarmId === swarmId),
      "the failed swarm's end on the event stream",
      120_000,
    );
    const ended = worker.events.find((e) => e.type === "swarm-ended" && e.swarmId === swarmId);
    assert.ok(ended?.type === "swarm-ended" && ended.outcome === "failed", JSON.stringify(ended));
    assert.match(ended.reason, /^the swarm could not start: /);
    assert.equal(
      worker.events.some((e) => e.type === "swarm-started" && e.swarmId === swarmId),
      false,
      "it never started",
    );
  });

  it("refuses a free run (no script) on a model that cannot call tools before writing anything", async () => {
    const repo = makeSampleRepo();
    const worker = await forkWorker();
    workers.push(worker);
    const modelPath = sharedModelPath("stories260K.gguf");
    const { refusal } = await worker.peer.request(modelToolCallingMethod, { modelPath });
    assert.match(refusal ?? "", /stories260K\.gguf has no chat template/);
    const started = worker.peer.request(startSwarmMethod, {
      goal: "Fix median for even-length lists",
      recipe: "organization",
      modelPath,
      workspace: repo.workspace,
      stateDir: repo.stateDir,
      threads: 1,
      policy: { allow: [...defaultPolicyRules.allow], ask: [], deny: [...defaultPolicyRules.deny] },
    });
    await assert.rejects(started, (error: unknown) => {
      assert.ok(error instanceof RpcError);
      assert.equal(error.error.code, "model-cannot-call-tools");
      assert.match(error.error.message, /Pick an instruct model with native tool calling/);
      return true;
    });
    assert.equal(existsSync(repo.stateDir), false, "no state dir was written");
    assert.equal(git(repo.workspace, "branch", "--list", "swarmboard/*"), "");
  });

  it("sizes the pool from the memory budget of the start request (swarmboard.memoryBudget): its cells at the model's cost", async () => {
    const { repo, recipeFile, worker } = await oneAgentSetUp();
    const modelPath = sharedModelPath("tiny-random-qwen2-chatml.gguf");
    const { bytesPerCell } = await worker.peer.request(modelFactsMethod, { modelPath, threads: 1 });
    // 8,192 cells' worth: below the recipe's 32,768 and free memory, above the trunk.
    const memoryBudget = `${(bytesPerCell * 8192) / 1024}KiB`;
    const facts = await worker.peer.request(modelFactsMethod, { modelPath, threads: 1, memoryBudget });
    assert.equal(facts.poolCells, 8192, facts.poolOrigin);
    const { swarmId } = await worker.peer.request(
      startSwarmMethod,
      finishingStart(repo, recipeFile, "state-budget", { memoryBudget }),
    );
    await until(
      () => worker.events.some((e) => e.type === "swarm-ended" && e.swarmId === swarmId),
      "the swarm's end",
      300_000,
    );
    const stats = worker.events.find((e) => e.type === "kv-stats" && e.swarmId === swarmId);
    assert.ok(stats?.type === "kv-stats", "the swarm reported its budget");
    assert.equal(stats.stats.poolCells, 8192);
    assert.match(stats.stats.poolOrigin ?? "", new RegExp(`set by the memory budget .*\\(${memoryBudget}\\)`));
  });
});
