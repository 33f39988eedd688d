// One swarm run, start to end: open the board and the repository, load the model once, decode the trunk
// once, fork the agents from it, run their loops together (their generations share each decode step),
// fan in through the synthesist, write the report. Everything it does is reported as events.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { agentBrief, boardReport, synthesistBrief } from "../core/agentBriefs";
import { swarmBudgetAction } from "../core/budgets";
import { planStages } from "../core/stagePlan";
import { SwarmBoard } from "../core/swarmBoard";
import { renderTrunk, type RosterEntry } from "../core/trunkPrompt";
import { listRules } from "../core/agentRules";
import { ProgressGuard } from "../core/progressGuard";
import type { Recipe, Role } from "../protocol/recipe";
import type { SwarmEvent } from "../protocol/swarmEvents";
import type { Task } from "../protocol/tasks";
import type { TurnScript } from "../protocol/turnScript";
import { AgentChatFormat } from "../runtime/agentChatFormat";
import { loadSwarmModel, type SwarmModel } from "../runtime/loadModel";
import { createSwarmContext, type SwarmContext } from "../runtime/swarmContext";
import type { SwarmAgent } from "../runtime/swarmAgent";
import type { CommandApprover } from "../workspace/approvals";
import { AgentWorkspace } from "../workspace/agentWorkspace";
import { readAgentRules } from "../workspace/agentRulesFiles";
import { BoardLogFile } from "../workspace/boardLog";
import { CommandPolicy, type PolicyRules } from "../workspace/commandPolicy";
import { SwarmRepository } from "../workspace/swarmRepository";
import { recoverSwarm } from "../workspace/swarmCleanup";
import { AgentCalls } from "./agentCalls";
import { AgentRunner, type AgentEnd, type AgentEventDraft } from "./agentRunner";
import type { SubagentOutcome } from "./callDispatch";
import { CellWaiters } from "./cellWaiters";
import { toolsForRole, unionOfTools, type CatalogTool } from "./toolCatalog";
import { gatherTasks, testFailureTasks, workspaceSummary } from "./workspaceTasks";
import { runTestCommandInScratch } from "../workspace/scratchTestRun";

export interface SwarmRunOptions {
  readonly swarmId: string;
  readonly goal: string;
  readonly recipe: Recipe;
  /** Agents for the working roles (split over them); default: the recipe's counts. */
  readonly agents?: number;
  readonly modelPath: string;
  readonly workspace: string;
  readonly stateDir: string;
  readonly threads: number;
  readonly kvCells?: number;
  readonly budgetMs?: number;
  readonly script?: TurnScript;
  readonly approver: CommandApprover;
  readonly policy: PolicyRules;
  readonly temperature?: number;
  readonly seed?: number;
  /**
   * Continue an interrupted swarm from its state dir: its board (every acknowledged entry) and branches are
   * kept, new agents fork from a fresh trunk that includes the board's state.
   */
  readonly resume?: boolean;
  /** Put the repository's agent-rules files (AGENTS.md and the like) into the trunk; default true. */
  readonly agentRules?: boolean;
}

export interface SwarmSummary {
  readonly outcome: "completed" | "budget" | "stopped" | "failed";
  readonly reason: string;
  readonly reportPath: string;
  readonly integrationBranch: string;
  readonly agents: ReadonlyArray<{ id: string; role: string; branch?: string; end: AgentEnd }>;
}

interface Seat {
  readonly id: string;
  readonly role: Role;
}

/** How deep sub-agents may nest (a sub-agent of a sub-agent, no further). */
const maxSubagentDepth = 2;
/** Sequences kept for sub-agents beyond the widest stage. */
const subagentSeats = 2;

/** One running agent as the session sees it. */
interface AgentSlot {
  readonly id: string;
  readonly role: Role;
  readonly agent: SwarmAgent;
  readonly tools: CatalogTool[];
  readonly workspace?: AgentWorkspace;
  /** 0 for the swarm's own agents, 1 and more for sub-agents. */
  readonly depth: number;
  readonly isSynthesist: boolean;
  readonly opening: "brief" | "call-result";
}

/** The working seats of a recipe, numbered like the runtime numbers its forks (agent-1, agent-2, ...). */
function seatsOf(recipe: Recipe, agents: number | undefined): Seat[][] {
  const roles = new Map(recipe.roles.map((r) => [r.name, r]));
  const working = recipe.roles.filter((r) => r.name !== recipe.synthesist);
  const counts = new Map(
    working.map((r, i) => [
      r.name,
      agents === undefined ? r.count : Math.floor(agents / working.length) + (i < agents % working.length ? 1 : 0),
    ]),
  );
  let n = 0;
  return planStages(recipe).map((stage) =>
    stage.flatMap((name) =>
      Array.from({ length: counts.get(name) ?? 0 }, () => ({ id: `agent-${++n}`, role: roles.get(name)! })),
    ),
  );
}

export class SwarmSession {
  private readonly startedAt = Date.now();
  private readonly controller = new AbortController();
  private readonly cells = new CellWaiters();
  private context: SwarmContext | undefined;
  /** Private cells each agent may use: an equal share of what the trunk leaves of the pool. */
  private tailBudget = 0;

  constructor(
    private readonly options: SwarmRunOptions,
    private readonly emitEvent: (event: SwarmEvent) => void,
  ) {}

  private readonly agentControllers = new Map<string, AbortController>();

  /** Stops every agent at its next step; what exists is compiled into the report. */
  stop(): void {
    this.controller.abort();
  }

  /** Stops one agent at its next step; false when it is not running. */
  stopAgent(agentId: string): boolean {
    const controller = this.agentControllers.get(agentId);
    controller?.abort();
    return controller !== undefined;
  }

  private emit(draft: AgentEventDraft | Extract<SwarmEvent, { type: "swarm-started" | "swarm-ended" }>): void {
    this.emitEvent({ ...draft, swarmId: this.options.swarmId, time: Date.now() } as SwarmEvent);
  }

  async run(): Promise<SwarmSummary> {
    const { options } = this;
    await mkdir(options.stateDir, { recursive: true });
    const store = await BoardLogFile.open(path.join(options.stateDir, "board.jsonl"));
    if (!options.resume && store.entries().length > 0) {
      await store.close();
      throw new Error(
        `${options.stateDir} already holds a swarm (${store.entries().length} board entries). ` +
          "Continue it with --resume, or give a new --state-dir for a new swarm.",
      );
    }
    const board = new SwarmBoard({ store, visibility: options.recipe.visibility, leaseMs: 10 * 60_000 });
    const repo = await SwarmRepository.open({
      repoPath: options.workspace,
      stateDir: options.stateDir,
      swarm: options.swarmId,
    });
    // After a crash, lock files the dead owner left in this swarm's worktrees and refs are cleared first.
    if (options.resume) {
      await recoverSwarm(repo);
      // Claims of the interrupted run end here, so the new agents (who reuse the ids) do not inherit them.
      for (const lease of board.claims.active(Date.now())) {
        await board.release(lease.claimId, "interrupted: the swarm stopped before this claim ended", Date.now());
      }
    }
    await repo.start({ includeUncommitted: false });
    // The model stays loaded after the run: the worker owns it and the next swarm reuses it.
    const model = await loadSwarmModel({ modelPath: options.modelPath, threads: options.threads });
    try {
      return await this.runWith(board, repo, model);
    } finally {
      await this.context?.dispose();
      await store.close();
    }
  }

  private async runWith(board: SwarmBoard, repo: SwarmRepository, model: SwarmModel): Promise<SwarmSummary> {
    const { options } = this;
    const recipe = options.recipe;
    const stages = seatsOf(recipe, options.agents);
    const seats = stages.flat();
    const synthRole = recipe.roles.find((r) => r.name === recipe.synthesist);
    const toolsBySeat = new Map(seats.map((s) => [s.id, toolsForRole(s.role, false)]));
    const synthTools = synthRole ? toolsForRole(synthRole, true) : [];
    const tested = await testFailureTasks(recipe, (command) =>
      runTestCommandInScratch(repo, command, new CommandPolicy(options.policy)),
    );
    if (tested.note !== undefined) {
      this.emit({
        type: "board-entry",
        entry: await board.postFinding({ author: "swarmboard", kind: "OBSERVED", text: tested.note, time: Date.now() }),
      });
    }
    const tasks = await gatherTasks(recipe, options.goal, repo.topLevel, board, tested.tasks);
    const roster: RosterEntry[] = seats.map((s) => ({
      agent: s.id,
      role: s.role.name,
      covers: "claims its own task from the open tasks",
    }));
    const rules = options.agentRules === false ? [] : await readAgentRules(repo.topLevel);
    const trunkText = renderTrunk({
      recipe,
      goal: options.goal,
      tools: [],
      roster,
      workspaceSummary: await workspaceSummary(repo.topLevel, tasks, board),
      rules,
    });
    // What every agent was told, kept with the run (the trunk is the one prompt all agents share).
    await writeFile(path.join(options.stateDir, "trunk.txt"), trunkText);
    const format = await AgentChatFormat.create(model, trunkText, unionOfTools([...toolsBySeat.values(), synthTools]));
    const kvCells = options.kvCells ?? recipe.budgets.kvCells;
    this.context = await createSwarmContext(model, {
      maxAgents: Math.max(1, ...stages.map((s) => s.length)) + subagentSeats,
      kvCells,
      threads: options.threads,
    });
    const context = this.context;
    await context.appendToTrunk(format.trunkTokens);
    const widestStage = Math.max(1, ...stages.map((s) => s.length));
    this.tailBudget = Math.max(64, Math.floor((context.poolCells - context.trunkTokens.length) / widestStage) - 64);
    this.emit({
      type: "swarm-started",
      goal: options.goal,
      recipe: recipe.name,
      mode: context.mode,
      model: model.facts,
      integrationBranch: repo.integrationBranch,
      trunkTokens: context.trunkTokens.length,
      rules: listRules(rules),
    });
    let lastStats = "";
    const statsTimer = setInterval(() => {
      const stats = context.stats();
      const key = JSON.stringify(stats);
      if (key !== lastStats) this.emit({ type: "kv-stats", stats });
      lastStats = key;
    }, 250);
    try {
      const ends: SwarmSummary["agents"][number][] = [];
      for (const stage of stages) {
        if (this.controller.signal.aborted || this.fanInDue()) break;
        const results = await Promise.all(
          stage.map((seat) => this.runSeat(seat, toolsBySeat.get(seat.id)!, board, repo, format, tasks)),
        );
        ends.push(...results);
      }
      const report = await this.fanIn(board, repo, format, synthRole, synthTools, ends);
      this.emit({ type: "kv-stats", stats: context.stats() });
      const outcome = this.controller.signal.aborted ? "stopped" : this.fanInDue() ? "budget" : "completed";
      const reason =
        outcome === "stopped"
          ? "stopped by the user"
          : outcome === "budget"
            ? "the wall-clock budget ran out; the synthesist fanned in with what existed"
            : "every agent finished";
      this.emit({ type: "swarm-ended", outcome, reason, reportPath: report });
      return { outcome, reason, reportPath: report, integrationBranch: repo.integrationBranch, agents: ends };
    } catch (error) {
      this.emit({ type: "swarm-ended", outcome: "failed", reason: (error as Error).message });
      throw error;
    } finally {
      clearInterval(statsTimer);
    }
  }

  private budgetAction(): "continue" | "fanIn" | "stop" {
    const budgets = {
      ...this.options.recipe.budgets,
      ...(this.options.budgetMs ? { wallClockMs: this.options.budgetMs } : {}),
    };
    return swarmBudgetAction(budgets, this.startedAt, Date.now()).action;
  }

  private fanInDue(): boolean {
    return this.budgetAction() !== "continue";
  }

  private async runSeat(
    seat: Seat,
    tools: CatalogTool[],
    board: SwarmBoard,
    repo: SwarmRepository,
    format: AgentChatFormat,
    tasks: readonly Task[],
  ) {
    const agent = await this.fork({ expectedTail: 64 });
    if (agent.id !== seat.id) throw new Error(`The runtime named the fork ${agent.id}, expected ${seat.id}.`);
    // Every agent reads the code in a worktree of its own (readers too: it is their view of the integration branch).
    const workspace = await this.openWorkspace(repo, seat.id);
    const slot: AgentSlot = {
      id: seat.id,
      role: seat.role,
      agent,
      tools,
      depth: 0,
      isSynthesist: false,
      opening: "brief",
      workspace,
    };
    const end = await this.runAgent(slot, agentBrief(seat.id, seat.role, tasks), format, board);
    return { id: seat.id, role: seat.role.name, branch: workspace.worktree.branch, end };
  }

  /** Forks an agent and reports the budget right then: it owns what it was forked from and no cell of its own yet. */
  private async fork(options: Parameters<SwarmContext["fork"]>[0]): Promise<SwarmAgent> {
    const agent = await this.context!.fork(options);
    this.emit({ type: "kv-stats", stats: this.context!.stats() });
    return agent;
  }

  /** Runs a forked agent to its end, then frees what it held: its private cells and its place on the board. */
  private async runAgent(
    slot: AgentSlot,
    brief: string,
    format: AgentChatFormat,
    board: SwarmBoard,
    parent?: string,
  ): Promise<AgentEnd> {
    board.join(slot.id, { isSynthesist: slot.isSynthesist });
    const branch = slot.workspace?.worktree.branch;
    this.emit({
      type: "agent-added",
      agent: { id: slot.id, role: slot.role.name, ...(parent ? { parent } : {}), ...(branch ? { branch } : {}) },
    });
    try {
      return await this.runner(slot, format, board).run(brief);
    } finally {
      await slot.agent.release();
      this.cells.freed();
      board.leave(slot.id);
    }
  }

  private openWorkspace(repo: SwarmRepository, agentId: string): Promise<AgentWorkspace> {
    return AgentWorkspace.open(repo, agentId, {
      policy: new CommandPolicy(this.options.policy),
      approver: this.options.approver,
    });
  }

  /**
   * A sub-agent: forked from its parent's current state (the cheapest fork: it shares everything the parent
   * has read), it works in the parent's worktree while the parent waits, and its findings go back to the parent.
   */
  private async spawnChild(
    parent: AgentSlot,
    task: string,
    format: AgentChatFormat,
    board: SwarmBoard,
  ): Promise<SubagentOutcome> {
    const child = await this.fork({ from: parent.agent, expectedTail: 64 });
    const depth = parent.depth + 1;
    const tools = toolsForRole(parent.role, false, depth < maxSubagentDepth);
    const slot: AgentSlot = { ...parent, id: child.id, agent: child, tools, depth, opening: "call-result" };
    const brief = JSON.stringify({
      result: {
        youAre: child.id,
        subAgentOf: parent.id,
        task,
        note: "You share your parent's context. Do the task, post findings, then call finish with a summary.",
      },
    });
    const end = await this.runAgent(slot, brief, format, board, parent.id);
    const findings = board.board
      .entries()
      .filter((e) => e.author === child.id && ["OBSERVED", "FACT", "FAIL", "PATCH_SUMMARY"].includes(e.kind))
      .map((e) => ({ kind: e.kind, text: e.text }));
    return { agentId: child.id, summary: end.reason, findings };
  }

  private runner(slot: AgentSlot, format: AgentChatFormat, board: SwarmBoard): AgentRunner {
    const { options } = this;
    const context = this.context!;
    const { id, agent, tools, isSynthesist } = slot;
    const agentController = new AbortController();
    this.agentControllers.set(id, agentController);
    const signal = AbortSignal.any([this.controller.signal, agentController.signal]);
    const script =
      options.script?.agents[id] ??
      (isSynthesist ? options.script?.agents["synthesist"] : undefined) ??
      (options.script ? [] : undefined);
    const calls = new AgentCalls(agent, format, tools, {
      maxArgTokens: 256,
      temperature: options.temperature ?? 0.7,
      seed: (options.seed ?? 1) + Number(id.replace(/\D/g, "") || 0),
      ...(script ? { script } : {}),
      signal,
    });
    const canDelegate = tools.some((t) => t.name === "spawn_subagent");
    return new AgentRunner({
      id,
      isSynthesist,
      calls,
      board,
      tools,
      budgets: options.recipe.budgets,
      ...(slot.workspace ? { workspace: slot.workspace } : {}),
      guard: new ProgressGuard({ noProgressSteps: 8, repeatLimit: 3 }),
      emit: (e) => this.emit(e),
      now: () => Date.now(),
      signal,
      budgetAction: () => this.budgetAction(),
      waitForCells: () => this.cells.wait(() => context.liveAgents.length > 1),
      privateCells: () => agent.tokens.length - context.trunkTokens.length,
      tailBudget: this.tailBudget,
      opening: slot.opening,
      ...(canDelegate ? { spawnSubagent: (task: string) => this.spawnChild(slot, task, format, board) } : {}),
    });
  }

  /** The synthesist reads every pad and writes the report; if it cannot, the board is compiled into one. */
  private async fanIn(
    board: SwarmBoard,
    repo: SwarmRepository,
    format: AgentChatFormat,
    role: Role | undefined,
    tools: CatalogTool[],
    ends: SwarmSummary["agents"][number][],
  ): Promise<string> {
    const { options } = this;
    const reportPath = path.join(options.stateDir, "report.md");
    let report: { title: string; body: string } | undefined;
    let why = "This swarm's recipe has no synthesist: this report was compiled from the board.";
    if (role !== undefined) {
      const agent = await this.fork({ role: "synthesist", expectedTail: 128 });
      const workspace = await this.openWorkspace(repo, agent.id);
      const slot: AgentSlot = {
        id: agent.id,
        role,
        agent,
        tools,
        depth: 0,
        isSynthesist: true,
        opening: "brief",
        workspace,
      };
      const end = await this.runAgent(slot, synthesistBrief(agent.id, role, board.board.entries()), format, board);
      ends.push({ id: agent.id, role: role.name, branch: workspace.worktree.branch, end });
      report = end.report;
      why = `The synthesist ended without writing a report (${end.reason}): this report was compiled from the board.`;
    }
    const text = report
      ? `# ${report.title}\n\n${report.body}\n`
      : boardReport(options.goal, board.board.entries(), why);
    await writeFile(reportPath, text);
    return reportPath;
  }
}
