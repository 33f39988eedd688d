// Compaction by re-fork, the worker's half. The runner records each call and what the agent read back; when
// reading the next result would leave the agent less than its call reserve, its state is written as a compact
// brief (src/core/compactBrief.ts), the runtime re-forks it from the trunk (a free fork: its cells are released)
// and it reads the brief. Its id, claims, worktree, branch, messages and lane are the swarm's and carry on.
import { briefTokenLimit, compactBrief, compactionDue, type RecordedCall } from "../../core/compactBrief";
import type { SwarmBoard } from "../../core/swarmBoard";
import type { EngineAgent, EngineContext } from "../../runtime/port/engine";
import type { SequencePositionCheck } from "../../runtime/port/engineShapes";
import type { AgentCalls, ModelCall } from "./agentCalls";
import type { AgentEventDraft } from "./agentEventDraft";

export interface AgentCompactionDeps {
  readonly id: string;
  readonly board: SwarmBoard;
  readonly calls: AgentCalls;
  /** The most private cells the agent may hold: its share of the pool. */
  readonly shareCells: number;
  /** Cells the agent holds beyond the trunk (pending token included). */
  readonly privateCells: () => number;
  /** Releases the agent's cells and forks it again from the trunk; resolves with the cells released. */
  readonly refork: () => Promise<{ releasedCells: number }>;
  /** llama.cpp's positions of the agent's sequence beside the ledger's, read after the brief. */
  readonly positions: () => SequencePositionCheck;
  readonly emit: (event: AgentEventDraft) => void;
  readonly now: () => number;
}

export class AgentCompaction {
  private readonly calls: RecordedCall[] = [];
  private compactions = 0;
  private firstBrief = "";

  constructor(private readonly deps: AgentCompactionDeps) {}

  /** The brief the agent opened with; every compact brief repeats it. */
  begin(brief: string): void {
    this.firstBrief = brief;
  }

  /** Keeps a call and what the agent reads after it (its result or error, messages, findings, notes). */
  record(call: ModelCall, ok: boolean, readback: string): void {
    const recorded: RecordedCall =
      call.kind === "call"
        ? { tool: call.name, args: call.argsText, ok, readback }
        : { tool: `(${call.kind})`, args: call.kind === "malformed" ? call.text : "", ok, readback };
    this.calls.push(recorded);
  }

  /** True when reading `readback` now would leave the agent less than its call reserve. */
  due(readback: string): boolean {
    return compactionDue(this.deps.privateCells(), this.deps.calls.readCost(readback), this.deps.shareCells);
  }

  /** Reads the result, or, when it would leave too little of the share, compacts: the brief carries the result. */
  readOrCompact(readback: string, usage: { steps: number; tokens: number }): Promise<void> {
    return this.due(readback) ? this.compact(usage) : this.deps.calls.answer(readback);
  }

  /** True when compacting would free more cells than the brief takes back (the brief is at most a third of the share). */
  worthGivingBack(): boolean {
    return this.deps.privateCells() > briefTokenLimit(this.deps.shareCells);
  }

  /** Writes the brief, re-forks the agent from the trunk and reads the brief into it; `usage` is for the lane. */
  async compact(usage: { steps: number; tokens: number }): Promise<void> {
    const { deps } = this;
    const brief = this.brief(usage.steps);
    const { releasedCells } = await deps.refork();
    await deps.calls.open(brief);
    this.compactions++;
    const { ledgerCells, llamaMinPosition, llamaMaxPosition } = deps.positions();
    deps.emit({
      type: "agent-compacted",
      agentId: deps.id,
      compaction: this.compactions,
      releasedCells,
      shareCells: deps.shareCells,
      brief,
      briefTokens: deps.calls.briefCost(brief),
      steps: usage.steps,
      tokens: usage.tokens,
      positions: { ledgerCells, llamaMinPosition, llamaMaxPosition },
    });
  }

  /** The compact brief, in at most a third of the share: its characters shrink until its tokens fit. */
  private brief(steps: number): string {
    const { deps } = this;
    const limit = briefTokenLimit(deps.shareCells);
    const record = {
      id: deps.id,
      firstBrief: this.firstBrief,
      steps,
      compactions: this.compactions,
      calls: this.calls,
    };
    const board = {
      entries: deps.board.board.entries(),
      claims: deps.board.claims.leasesOf(deps.id, deps.now()),
      messages: deps.board.messages.history(),
    };
    let maxChars = limit * 4;
    for (;;) {
      const text = compactBrief(record, board, maxChars);
      const tokens = deps.calls.briefCost(text);
      if (tokens <= limit || maxChars <= 64) return text;
      maxChars = Math.max(64, Math.floor(((maxChars * limit) / tokens) * 0.9));
    }
  }
}

/** What an agent's compaction on the swarm's context needs besides the context itself. */
export interface ContextCompactionInput extends Pick<
  AgentCompactionDeps,
  "id" | "board" | "calls" | "shareCells" | "privateCells" | "emit"
> {
  readonly agent: EngineAgent;
  readonly context: EngineContext;
  /** Called once the agent's cells were released, before it reads its brief (paused agents may try again). */
  readonly released: () => void;
}

/** An agent's compaction by re-fork on the swarm's context: at its share it is forked again from the trunk. */
export function compactionOnContext(input: ContextCompactionInput): AgentCompaction {
  const { id, agent, context, emit } = input;
  return new AgentCompaction({
    ...input,
    refork: async () => {
      const released = await context.refork(agent, { expectedTail: 64 });
      input.released();
      return released;
    },
    positions: () => {
      const check = context.checkPositions().find((c) => c.id === id);
      if (check === undefined) throw new Error(`${id} has no sequence after its compaction`);
      return check;
    },
    emit: (event) => {
      emit(event);
      // The KV budget shows the released cells at once.
      emit({ type: "kv-stats", stats: context.stats() });
    },
    now: () => Date.now(),
  });
}
