// The agents of a running swarm: each is forked from the trunk (or a sub-agent from its parent's current
// state), gets its own worktree under the swarm's one command policy, runs its loop, and is released when it
// ends, freeing its private cells and its place on the board. Agents read through the swarm's one shared view; a
// writer's worktree is made when it first claims or writes. The setup's context is the only one they fork.
import { isFindingKind } from "../../protocol/findingKinds";
import type { Role } from "../../protocol/recipe";
import type { EngineAgent } from "../../runtime/port/engine";
import { AgentWorkspace } from "../../workspace/agentWorkspace";
import type { AgentEnd } from "../agent/agentRunner";
import { BackgroundByParent, type Delegation } from "../agent/backgroundSubagents";
import { CellWaiters } from "./cellWaiters";
import { noSubagentSeat, SeatNumbers, seatAccess, type Seat } from "./seatPlan";
import { seatRunner, type SeatHooks, type Slot } from "./seatRunner";
import type { SeatsGround } from "./swarmRun";
import { toolsForRole, type CatalogTool } from "../agent/toolCatalog";
import type { SubagentOutcome } from "../agent/tools/toolContext";

/** How deep sub-agents may nest (a sub-agent of a sub-agent, no further). */
const maxSubagentDepth = 2;

/** One agent that ended, as the summary lists it. */
export interface SeatEnd {
  readonly id: string;
  readonly role: string;
  readonly branch?: string;
  readonly end: AgentEnd;
}

export class SwarmSeats {
  private readonly cells = new CellWaiters(() => this.setup.context.liveAgents.length);
  private readonly numbers: SeatNumbers;
  /** Sub-agents left running in the background (spawn_subagent with wait false). */
  private readonly background = new BackgroundByParent();

  constructor(
    private readonly setup: SeatsGround,
    private readonly hooks: SeatHooks,
  ) {
    this.numbers = new SeatNumbers(setup.plan);
  }

  /** Numbers the next agents past `last` (a resumed standing swarm: no id of the dead run is reused). */
  skipNumbersThrough(last: number): void {
    this.numbers.skipThrough(last);
  }

  /** Forks a planned seat from the trunk, in a worktree of its own, and runs it to its end. */
  async runSeat(seat: Seat, brief: string): Promise<SeatEnd> {
    const slot = await this.open(seat, { isSynthesist: false, expectedTail: 64 });
    return this.runToEnd(slot, brief);
  }

  /** Forks a new agent of `role` from the trunk (a takeover) and runs it; its brief may name its id. */
  async runFreshSeat(
    role: Role,
    tools: readonly CatalogTool[],
    brief: (id: string) => Promise<string>,
  ): Promise<SeatEnd> {
    const number = this.numbers.next();
    const seat = { id: `agent-${number}`, number, role, tools };
    const slot = await this.open(seat, { isSynthesist: false, expectedTail: 64 });
    return this.runToEnd(slot, await brief(slot.id));
  }

  /** Forks the synthesist from the trunk and runs it; it reads every pad and writes the report. */
  async runSynthesist(role: Role, tools: readonly CatalogTool[], brief: (id: string) => string): Promise<SeatEnd> {
    const number = this.numbers.next();
    const seat = { id: `synthesist-${number}`, number, role, tools };
    const slot = await this.open(seat, { isSynthesist: true, expectedTail: 128 });
    return this.runToEnd(slot, brief(slot.id));
  }

  /** Forks, reports the budget right then (the agent owns what it was forked from, no cell of its own yet). */
  private async fork(id: string, options: Parameters<SeatsGround["context"]["fork"]>[1]): Promise<EngineAgent> {
    const agent = await this.setup.context.fork(id, options);
    this.hooks.emit({ type: "kv-stats", stats: this.setup.context.stats() });
    return agent;
  }

  private async open(seat: Seat, how: { isSynthesist: boolean; expectedTail: number }): Promise<Slot> {
    const agent = await this.fork(seat.id, {
      expectedTail: how.expectedTail,
      ...(how.isSynthesist ? { role: "synthesist" } : {}),
    });
    // Agents read through the swarm's one shared view (moved to the integration branch's latest merges first); a
    // writer's own worktree is made at its first claim or write.
    await this.setup.readView.followIntegration();
    const workspace = await AgentWorkspace.onDemand(
      this.setup.repo,
      seat.id,
      seatAccess(seat.tools),
      this.setup.readView,
      {
        policy: this.setup.policy,
        approver: this.setup.options.approver,
        dependencies: this.setup.dependencies,
        ...(this.setup.verifier ? { verifier: this.setup.verifier } : {}),
        sparse: this.setup.disk.sparse,
        allowAutomationFiles: this.setup.options.recipe.allowAutomationFiles === true,
        reviewApprovals: this.setup.options.recipe.review?.approvals ?? 0,
        protectedPaths: this.setup.protectedPaths,
      },
    );
    return { ...seat, agent, workspace, depth: 0, isSynthesist: how.isSynthesist, opening: "brief" };
  }

  private async runToEnd(slot: Slot, brief: string): Promise<SeatEnd> {
    const end = await this.runAgent(slot, brief);
    // A branch only where the agent made its worktree (readers and writers that never claimed have none).
    const { workspace } = slot;
    const branch = workspace.hasWorktree ? workspace.worktree.branch : undefined;
    return { id: slot.id, role: slot.role.name, ...(branch ? { branch } : {}), end };
  }

  /** Runs a forked agent to its end, then frees what it held: its private cells and its place on the board. */
  private async runAgent(slot: Slot, brief: string, parent?: string): Promise<AgentEnd> {
    const { board } = this.setup;
    board.join(slot.id, { isSynthesist: slot.isSynthesist, name: slot.role.name, ...(parent ? { parent } : {}) });
    const branch = slot.workspace.branch;
    this.hooks.emit({
      type: "agent-added",
      agent: { id: slot.id, role: slot.role.name, ...(branch ? { branch } : {}), ...(parent ? { parent } : {}) },
    });
    try {
      const canDelegate = slot.tools.some((t) => t.name === "spawn_subagent");
      const runner = seatRunner(this.setup, this.hooks, slot, {
        parent,
        waitForCells: (held) => this.cells.wait(held),
        cellsFreed: () => this.cells.freed(),
        ...(canDelegate ? { delegation: this.delegation(slot) } : {}),
      });
      return await runner.run(brief);
    } finally {
      // Its sub-agents in the background end before it does (they work in its worktree, for its task).
      await this.waitingOnSubagents(slot.id, () => this.background.settle(slot.id));
      this.hooks.pauses?.forget(slot.id);
      await slot.agent.release();
      this.cells.freed();
      board.leave(slot.id);
    }
  }

  /**
   * A sub-agent: forked from its parent's current state (the cheapest fork: it shares everything the parent
   * has read), it works in the parent's worktree, writes on the parent's pad, and its outcome goes back to the
   * parent: as the spawn call's result, or (wait false) later, while the parent goes on.
   */
  private async spawnChild(parent: Slot, task: string, wait: boolean): Promise<SubagentOutcome> {
    const number = this.numbers.next();
    const id = `agent-${number}`;
    const agent = await this.fork(id, { from: parent.agent, expectedTail: 64 }).catch((error: unknown) => {
      throw noSubagentSeat(this.setup.plan, error);
    });
    const depth = parent.depth + 1;
    const tools = toolsForRole(parent.role, false, depth < maxSubagentDepth);
    const slot: Slot = { ...parent, id, number, agent, tools, depth, opening: "call-result" };
    const note = "You share your parent's context. Do the task, post findings, then call finish with a summary.";
    const brief = JSON.stringify({ result: { youAre: id, subAgentOf: parent.id, task, note } });
    const run = this.runAgent(slot, brief, parent.id).then((end) => {
      const findings = this.setup.board.board
        .entries()
        .filter((e) => e.author === id && isFindingKind(e.kind))
        .map((e) => ({ kind: e.kind, text: e.text }));
      return { agentId: id, summary: end.reason, findings };
    });
    if (wait) return this.cells.blockedWhile(run);
    this.background.of(parent.id).add(id, run);
    return { agentId: id, summary: "started in the background", findings: [], running: true };
  }

  /**
   * A parent waiting for its background sub-agents frees no cell meanwhile (cellWaiters.ts); one with none running
   * goes straight on, and is not counted (its end would otherwise look like a parent stuck on its sub-agents).
   */
  private waitingOnSubagents<T>(parentId: string, wait: () => Promise<T>): Promise<T> {
    return this.background.runningOf(parentId) > 0 ? this.cells.blockedWhile(wait()) : wait();
  }

  private delegation(slot: Slot): Delegation {
    return {
      spawnSubagent: (task, wait) => this.spawnChild(slot, task, wait),
      collectSubagents: () => this.waitingOnSubagents(slot.id, () => this.background.of(slot.id).collect()),
      endedSubagents: () => this.background.of(slot.id).takeEnded(),
    };
  }
}
