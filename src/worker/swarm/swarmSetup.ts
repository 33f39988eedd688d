// Everything a swarm needs before its first fork, in one owned value (a SwarmRun, swarmRun.ts): the board (its
// durable log, resumed or new), the repository (recovered after a crash), the model, the seat plan, the one command
// policy, the open tasks, and the trunk decoded once into a new swarm context. Each step is one named function below.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { CloseStack } from "../../core/closeStack";
import { SwarmBoard } from "../../core/swarmBoard";
import { timedTextMatch } from "./timedTextMatch";
import { memoryRoomNote } from "../../core/workerMemory";
import type { BoardEntry } from "../../protocol/board";
import type { Task } from "../../protocol/tasks";
import { webSettingsSchema } from "../../protocol/webTools";
import { openEngine } from "../../runtime/engines";
import { gpuChoiceOf } from "../../runtime/modelServices";
import type { SwarmEngine } from "../../runtime/port/engine";
import { BoardLogFile } from "../../workspace/boardLog";
import type { CommandPolicy } from "../../workspace/commandPolicy";
import { repositoryProtectedPaths, swarmCommandPolicy } from "../../workspace/repositoryProtection";
import { SharedReadView } from "../../workspace/sharedReadView";
import { runTestCommandInScratch } from "../../workspace/scratchTestRun";
import { detectDependencyFolders, type DependencyFolders } from "../../workspace/dependencyFolders";
import { MergeVerifier } from "../../workspace/mergeVerifier";
import { recoverSwarm } from "../../workspace/swarmCleanup";
import { SwarmRepository } from "../../workspace/swarmRepository";
import { WebAccess } from "../agent/web/webAccess";
import { trunkStateFile } from "./keptTrunk";
import { processRuntime } from "./processRuntime";
import { planSeats, type SeatPlan } from "./seatPlan";
import { estimateDisk } from "./swarmDisk";
import { openSwarmMemory } from "./swarmMemory";
import type { SwarmRun } from "./swarmRun";
import type { SwarmRunOptions } from "./swarmRunOptions";
import { decodeTrunk, type DecodedTrunk } from "./trunkDecode";
import { gatherTasks, openWorkSummary, testFailureTasks, workspaceSummary } from "./workspaceTasks";

/** The board's log in the state dir; a new swarm refuses a state dir that already holds one. */
async function openBoardLog(options: SwarmRunOptions): Promise<BoardLogFile> {
  await mkdir(options.stateDir, { recursive: true });
  const store = await BoardLogFile.open(path.join(options.stateDir, "board.jsonl"));
  if (!options.resume && store.entries().length > 0) {
    await store.close();
    throw new Error(
      `${options.stateDir} already holds a swarm (${store.entries().length} board entries). ` +
        "Continue it with --resume, or give a new --state-dir for a new swarm.",
    );
  }
  return store;
}

/** The swarm's repository and integration branch; a resumed swarm first clears what the dead run left. */
async function openRepository(options: SwarmRunOptions, board: SwarmBoard): Promise<SwarmRepository> {
  const repo = await SwarmRepository.open({
    repoPath: options.workspace,
    stateDir: options.stateDir,
    swarm: options.swarmId,
  });
  if (options.resume) {
    await recoverSwarm(repo);
    // Claims of the interrupted run end here, so the new agents (who reuse the ids) do not inherit them.
    for (const lease of board.claims.active(Date.now()))
      await board.release(lease.claimId, "interrupted: the swarm stopped before this claim ended", Date.now());
  }
  await repo.start({ includeUncommitted: false });
  return repo;
}

/** Where the agents will work: the one command policy, the dependency folders, the read view, the disk, the tests. */
async function openWorkplace(options: SwarmRunOptions, repo: SwarmRepository, plan: SeatPlan) {
  const { recipe } = options;
  const protectedPaths = await repositoryProtectedPaths(repo);
  const policy = await swarmCommandPolicy(repo, options.policy, protectedPaths);
  const dependencies = await detectDependencyFolders(repo.topLevel, repo.commonDir, recipe.dependencyFolders);
  const readView = new SharedReadView(repo, protectedPaths, dependencies);
  const disk = await estimateDisk(repo, plan, options.sparseCheckoutAboveMiB ?? recipe.budgets.sparseCheckoutAboveMiB);
  const verifier =
    recipe.testCommand === undefined
      ? undefined
      : new MergeVerifier(repo, {
          testCommand: recipe.testCommand,
          policy,
          dependencies,
          publishUnverified: recipe.verify === "off",
          // A test run may take what the wall clock allows, at most ten minutes.
          timeoutMs: Math.min(options.budgetMs ?? recipe.budgets.wallClockMs, 10 * 60_000),
        });
  return { policy, dependencies, readView, disk, protectedPaths, ...(verifier ? { verifier } : {}) };
}

/** The open tasks; when the recipe's test run cannot happen, why is posted on the board. */
async function openTasks(
  setup: {
    options: SwarmRunOptions;
    repo: SwarmRepository;
    board: SwarmBoard;
    policy: CommandPolicy;
    dependencies: DependencyFolders;
    verifier?: MergeVerifier;
  },
  note: (entry: BoardEntry) => void,
): Promise<Task[]> {
  const { options, repo, board, policy, verifier, dependencies } = setup;
  const run = (command: string) =>
    verifier ? verifier.runOnIntegration() : runTestCommandInScratch(repo, command, policy, { dependencies });
  const tested = await testFailureTasks(options.recipe, run, dependencies);
  if (tested.note !== undefined)
    note(await board.postFinding({ author: "swarmboard", kind: "OBSERVED", text: tested.note, time: Date.now() }));
  return gatherTasks(options.recipe, options.goal, repo.topLevel, board, tested.tasks);
}

/** The trunk decoded (the context was created or taken over) and what the run's end does with it. */
function keepOrDispose(engine: SwarmEngine, trunk: DecodedTrunk): () => Promise<void> {
  const { context, shape } = trunk;
  return async () => {
    // The trunk's cells stay for the next swarm (the agents are released by now), and on disk when asked for.
    await engine.keepTrunk(context, { shape, stateFile: trunkStateFile(shape) });
  };
}

/**
 * Sets a swarm up; `note` receives the board entries posted on the way. A step that fails closes what the steps
 * before it opened (the board's log, the decoded context), so a failed set-up leaves nothing open.
 */
export async function setUpSwarm(options: SwarmRunOptions, note: (entry: BoardEntry) => void): Promise<SwarmRun> {
  const opened = new CloseStack();
  try {
    const store = opened.push(await openBoardLog(options), (s) => s.close());
    const board = new SwarmBoard({
      store,
      visibility: options.recipe.visibility,
      leaseMs: 10 * 60_000,
      textMatch: timedTextMatch(),
    });
    const observed = async (text: string) =>
      note(await board.postFinding({ author: "swarmboard", kind: "OBSERVED", text, time: Date.now() }));
    // A resume after a crash: say what opening the log cut, ended or kept unread (boardLog.ts).
    const repaired = store.notice();
    if (repaired !== undefined) await observed(repaired);
    // First, before the model loads: a bad host pattern in the settings is refused at once, by name.
    const web = new WebAccess({
      settings: options.web ?? webSettingsSchema.parse({}),
      recipeHosts: options.recipe.webHosts ?? [],
      approver: options.approver,
      cacheDir: path.join(options.stateDir, "web-pages"),
      now: () => Date.now(),
    });
    const repo = await openRepository(options, board);
    // The model stays loaded after the run: the worker owns it and the next swarm reuses it.
    const engine =
      options.checkedEngine ??
      (await openEngine(
        options.engine ?? { kind: "local" },
        {
          modelPath: options.modelPath,
          threads: options.threads,
          gpu: gpuChoiceOf(options.gpu ?? "auto"),
        },
        processRuntime,
      ));
    // A set-up that fails from here on closes every context the engine opened (the decoded trunk's too): none is kept.
    opened.push(engine, (e) => e.dispose());
    const { model } = engine;
    const plan = planSeats(options.recipe, options.agents);
    const work = await openWorkplace(options, repo, plan);
    const tasks = await openTasks({ options, repo, board, ...work }, note);
    const [summary, openWork] = [await workspaceSummary(repo.topLevel), openWorkSummary(tasks, board)];
    const memory = await openSwarmMemory({ options, repo, board, countTokens: (t) => model.tokenize(t).length, note });
    const trunk = await decodeTrunk({ options, repo, engine, plan, tasks, summary, openWork, memory: memory.section });
    const { context, format, rules, trunkReuse } = trunk;
    // The worker's memory beyond weights and KV, its fixed part read now (no agent live): short for the plan? Say so.
    const workerMemory = context.stats().memory;
    const short = workerMemory === undefined ? undefined : memoryRoomNote(workerMemory, plan.widestStage);
    if (short !== undefined) await observed(short);
    // On a pool shared with other swarms this swarm's cap, not the pool, is what its agents share.
    const cells = Math.min(context.poolCells, context.stats().share?.capCells ?? Number.POSITIVE_INFINITY);
    const equalShare = Math.floor((cells - context.trunkTokens.length) / plan.widestStage) - 64;
    const tailBudget = Math.max(64, Math.min(equalShare, options.tailCells ?? equalShare));
    const releaseTrunk = keepOrDispose(engine, trunk);
    const close = async () => {
      await releaseTrunk();
      await memory.remember(board.board.entries());
      await store.close();
    };
    const parts = { options, board, repo, plan, tasks, engine, model, context, format, tailBudget, rules, web };
    return { ...parts, ...work, ...(trunkReuse ? { trunkReuse } : {}), close };
  } catch (error) {
    await opened.closeAll();
    throw error;
  }
}
