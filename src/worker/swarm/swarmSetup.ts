// Everything a swarm needs before its first fork, in one value: the board (its durable log, resumed or new),
// the repository (recovered after a crash), the model, the seat plan, the one command policy, the open tasks,
// and the trunk decoded once into a new swarm context. Each step is one named function below.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { SwarmBoard } from "../../core/swarmBoard";
import { memoryRoomNote } from "../../core/workerMemory";
import type { AgentRule } from "../../protocol/agentRules";
import type { BoardEntry } from "../../protocol/board";
import type { Task } from "../../protocol/tasks";
import { webSettingsSchema } from "../../protocol/webTools";
import { type AgentChatFormat } from "../../runtime/agentChatFormat";
import type { EngineContext } from "../../runtime/engine";
import { openEngine, type SwarmEngine } from "../../runtime/engines";
import { gpuChoiceOf } from "../../runtime/gpuBackend";
import type { SwarmModel } from "../../runtime/loadModel";
import type { TrunkReuse } from "../../runtime/trunkReuse";
import { BoardLogFile } from "../../workspace/boardLog";
import type { CommandPolicy } from "../../workspace/commandPolicy";
import { repositoryProtectedPaths, swarmCommandPolicy } from "../../workspace/repositoryProtection";
import { SharedReadView } from "../../workspace/sharedReadView";
import { runTestCommandInScratch } from "../../workspace/scratchTestRun";
import { detectDependencyFolders, type DependencyFolders } from "../../workspace/dependencyFolders";
import { MergeVerifier } from "../../workspace/mergeVerifier";
import { recoverSwarm } from "../../workspace/swarmCleanup";
import { SwarmRepository } from "../../workspace/swarmRepository";
import { keepContext, trunkStateFile } from "./keptTrunk";
import { planSeats, type SeatPlan } from "./seatPlan";
import { estimateDisk, type SwarmDisk } from "./swarmDisk";
import { decodeTrunk } from "./trunkDecode";
import { openSwarmMemory } from "./swarmMemory";
import type { SwarmRunOptions } from "./swarmRunOptions";
import { WebAccess } from "../agent/web/webAccess";
import { gatherTasks, testFailureTasks, workspaceSummary } from "./workspaceTasks";

export type { SwarmRunOptions } from "./swarmRunOptions";

export interface SwarmSetup {
  readonly options: SwarmRunOptions;
  readonly board: SwarmBoard;
  readonly repo: SwarmRepository;
  /** The one command policy of the swarm: the test run and every agent's commands are judged by it. */
  readonly policy: CommandPolicy;
  /** The user's installed dependency folders that every worktree sees read-only. */
  readonly dependencies: DependencyFolders;
  /** Runs the recipe's tests before a merge is published; absent when the recipe names no test command. */
  readonly verifier?: MergeVerifier;
  /** The one read-only view of the integration commit that agents read until they have a worktree of their own. */
  readonly readView: SharedReadView;
  /** What the swarm's worktrees will take on disk at most (the launch says it). */
  readonly disk: SwarmDisk;
  readonly plan: SeatPlan;
  readonly tasks: readonly Task[];
  /** The engine that computes the swarm's tokens (local by default, or a remote serving engine). */
  readonly engine: SwarmEngine;
  readonly model: SwarmModel;
  readonly context: EngineContext;
  readonly format: AgentChatFormat;
  /** Private cells each agent may use before it compacts: an equal share of what the trunk leaves of the pool. */
  readonly tailBudget: number;
  /** The repository's agent-rules files the trunk carries (empty when turned off or none). */
  readonly rules: readonly AgentRule[];
  /** Set when the context was kept from the last swarm: how much of the trunk was reused and how much decoded. */
  readonly trunkReuse?: TrunkReuse;
  /** The swarm's way to the web: allowlist, approvals, caps, the page cache. */
  readonly web: WebAccess;
  /** Closes the board's log and keeps the context with its trunk (keptTrunk.ts); the model stays loaded. */
  close(): Promise<void>;
}

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

/** Sets a swarm up; `note` receives the board entries posted on the way. */
export async function setUpSwarm(options: SwarmRunOptions, note: (entry: BoardEntry) => void): Promise<SwarmSetup> {
  const store = await openBoardLog(options);
  try {
    const board = new SwarmBoard({ store, visibility: options.recipe.visibility, leaseMs: 10 * 60_000 });
    // A resume after a crash: say what opening the log cut, ended or kept unread (boardLog.ts).
    const repaired = store.notice();
    if (repaired !== undefined)
      note(await board.postFinding({ author: "swarmboard", kind: "OBSERVED", text: repaired, time: Date.now() }));
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
      (await openEngine(options.engine ?? { kind: "local" }, {
        modelPath: options.modelPath,
        threads: options.threads,
        gpu: gpuChoiceOf(options.gpu ?? "auto"),
      }));
    const { model } = engine;
    const plan = planSeats(options.recipe, options.agents);
    const policy = await swarmCommandPolicy(repo, options.policy);
    const { recipe } = options;
    const dependencies = await detectDependencyFolders(repo.topLevel, repo.commonDir, recipe.dependencyFolders);
    const readView = new SharedReadView(repo, await repositoryProtectedPaths(repo), dependencies);
    const disk = await estimateDisk(
      repo,
      plan,
      options.sparseCheckoutAboveMiB ?? recipe.budgets.sparseCheckoutAboveMiB,
    );
    const verifier =
      recipe.testCommand === undefined
        ? undefined
        : new MergeVerifier(repo, {
            testCommand: recipe.testCommand,
            policy,
            dependencies,
            // A test run may take what the wall clock allows, at most ten minutes.
            timeoutMs: Math.min(options.budgetMs ?? recipe.budgets.wallClockMs, 10 * 60_000),
          });
    const tasks = await openTasks({ options, repo, board, policy, dependencies, verifier }, note);
    const summary = await workspaceSummary(repo.topLevel, tasks, board);
    const memory = await openSwarmMemory({ options, repo, board, countTokens: (t) => model.tokenize(t).length, note });
    const trunk = await decodeTrunk({ options, repo, engine, plan, tasks, summary, memory: memory.section });
    const { context, format, rules, shape, trunkReuse } = trunk;
    // The worker's memory beyond weights and KV, its fixed part read now (no agent live): short for the plan? Say so.
    const workerMemory = context.stats().memory;
    const short = workerMemory === undefined ? undefined : memoryRoomNote(workerMemory, plan.widestStage);
    if (short !== undefined)
      note(await board.postFinding({ author: "swarmboard", kind: "OBSERVED", text: short, time: Date.now() }));
    const equalShare = Math.floor((context.poolCells - context.trunkTokens.length) / plan.widestStage) - 64;
    const tailBudget = Math.max(64, Math.min(equalShare, options.tailCells ?? equalShare));
    const close = async () => {
      // The trunk's cells stay for the next swarm (the agents are released by now), and on disk when asked for.
      const file = trunkStateFile(shape);
      if (engine.kind === "remote") await context.dispose();
      else {
        if (file !== undefined && context.liveAgents.length === 0) await context.saveTrunk(file).catch(() => undefined);
        await keepContext(context, shape);
      }
      await memory.remember(board.board.entries());
      await store.close();
    };
    const parts = {
      options,
      board,
      repo,
      policy,
      dependencies,
      plan,
      tasks,
      engine,
      model,
      context,
      format,
      tailBudget,
    };
    const optional = { ...(trunkReuse ? { trunkReuse } : {}), ...(verifier ? { verifier } : {}) };
    return { ...parts, rules, web, readView, disk, ...optional, close };
  } catch (error) {
    await store.close();
    throw error;
  }
}
