// A set-up that fails after the trunk decode (real runtime on the tiny ChatML test model, real git, a real board
// log): the engine's context is the real one, and only its first stats() reading (the set-up's memory check, the
// first thing after the decode) is made to throw. Nothing the set-up opened stays open: the decoded context is
// disposed (not kept for the next swarm), the board's log file is closed, and the session ends the swarm on the
// event stream, failed with the reason.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";
import { builtinRecipes } from "../../src/core/recipeCatalog";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import { openEngine } from "../../src/runtime/engines";
import type { EngineContext, SwarmEngine } from "../../src/runtime/port/engine";
import { denyAllApprover } from "../../src/workspace/approvals";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { trunkShape } from "../../src/worker/swarm/keptTrunk";
import { processRuntime } from "../../src/worker/swarm/processRuntime";
import { SwarmSession } from "../../src/worker/swarm/swarmSession";
import { setUpSwarm } from "../../src/worker/swarm/swarmSetup";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { makeSampleRepo, ofType } from "./swarmFixtures";

const forced = "forced: the memory reading after the trunk decode failed";

/** The real engine, whose contexts throw at their first stats() and count their disposals. */
function failingAfterDecode(engine: SwarmEngine, disposed: EngineContext[]): SwarmEngine {
  const wrap = (context: EngineContext): EngineContext => {
    let read = false;
    // Counted on the context itself: whoever disposes it (the set-up, or the engine closing what it holds).
    const dispose = context.dispose.bind(context);
    context.dispose = async () => {
      disposed.push(context);
      await dispose();
    };
    return new Proxy(context, {
      get(target, property) {
        if (property === "stats" && !read)
          return () => {
            read = true;
            throw new Error(forced);
          };
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
  // The engine's own methods, but the trunk's context is the wrapped one.
  const failing: SwarmEngine = Object.create(engine);
  failing.openTrunk = async (tokens, request, sizePool) => {
    const opened = await engine.openTrunk(tokens, request, sizePool);
    return { ...opened, context: wrap(opened.context) };
  };
  return failing;
}

/** The files this process holds open under `dir` (Linux: /proc/self/fd). */
function openFilesUnder(dir: string): string[] {
  const fds = path.join("/proc/self/fd");
  return readdirSync(fds)
    .map((fd) => {
      try {
        return readlinkSync(path.join(fds, fd));
      } catch {
        return "";
      }
    })
    .filter((target) => target.startsWith(realpathSync(dir)));
}

describe("a set-up that fails after the trunk decode", function () {
  before(() => processRuntime.dropKeptContext());
  after(() => processRuntime.dropKeptContext());

  const recipe = builtinRecipes().get("research")!;
  const options = (swarmId: string, stateDir: string, workspace: string, checkedEngine: SwarmEngine) => ({
    swarmId,
    goal: "Read the stats module",
    recipe,
    agents: 1,
    modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
    workspace,
    stateDir,
    threads: 1,
    kvCells: 8192,
    checkedEngine,
    approver: denyAllApprover,
    policy: defaultPolicyRules,
  });

  async function engine(): Promise<SwarmEngine> {
    const modelPath = sharedModelPath("tiny-random-qwen2-chatml.gguf");
    return openEngine({ kind: "local" }, { modelPath, threads: 1 }, processRuntime);
  }

  it("disposes the decoded context and closes the board's log", async () => {
    const repo = makeSampleRepo();
    const disposed: EngineContext[] = [];
    const real = await engine();
    const run = options("fails-1", repo.stateDir, repo.workspace, failingAfterDecode(real, disposed));
    await assert.rejects(
      setUpSwarm(run, () => undefined),
      (error: Error) => error.message === forced,
    );
    assert.ok(existsSync(path.join(repo.stateDir, "trunk.txt")), "the trunk was rendered and decoded first");
    assert.equal(disposed.length, 1, "the decoded context was disposed");
    assert.deepEqual(
      openFilesUnder(repo.stateDir),
      [],
      "nothing under the state dir stays open, the board's log included",
    );
    const shape = trunkShape(run, real.model, 1);
    assert.equal(await processRuntime.takeKeptContext(shape), undefined, "no context was kept for the next swarm");
  });

  it("ends the swarm on the event stream, failed, with why", async () => {
    const repo = makeSampleRepo();
    const disposed: EngineContext[] = [];
    const events: SwarmEvent[] = [];
    const run = options("fails-2", repo.stateDir, repo.workspace, failingAfterDecode(await engine(), disposed));
    await assert.rejects(new SwarmSession(run, (e) => events.push(e)).run(), (e: Error) => e.message === forced);
    const ends = ofType(events, "swarm-ended");
    assert.equal(ends.length, 1, "one end");
    assert.equal(ends[0]!.outcome, "failed");
    assert.equal(ends[0]!.reason, `the swarm could not start: ${forced}`);
    assert.equal(ofType(events, "swarm-started").length, 0, "it never started");
    assert.equal(disposed.length, 1, "the decoded context was disposed");
    assert.deepEqual(openFilesUnder(repo.stateDir), []);
  });
});
