// A parent's sub-agents that run in the background: spawn_subagent with `wait: false` returns at once and the
// parent goes on. Each outcome comes back with the parent's next tool result after the sub-agent ends (like a
// direct message), or all at once when the parent calls collect_subagents; the parent's seat does not end
// before they have (their work is part of its own, and the next stage starts after it).
import type { SubagentOutcome } from "./tools/toolContext";

export class BackgroundSubagents {
  private readonly running = new Map<string, Promise<void>>();
  private ended: SubagentOutcome[] = [];

  /** Tracks a sub-agent's run; a run that throws ends as a failed outcome the parent reads. */
  add(agentId: string, run: Promise<SubagentOutcome>): void {
    const settled = run
      .then(
        (outcome) => void this.ended.push(outcome),
        (error: unknown) =>
          void this.ended.push({
            agentId,
            summary: `failed: ${error instanceof Error ? error.message : String(error)}`,
            findings: [],
          }),
      )
      .finally(() => this.running.delete(agentId));
    this.running.set(agentId, settled);
  }

  get runningCount(): number {
    return this.running.size;
  }

  /** Outcomes of the sub-agents that ended since the last take. */
  takeEnded(): SubagentOutcome[] {
    const ended = this.ended;
    this.ended = [];
    return ended;
  }

  /** Waits until none runs, then takes what ended. */
  async collect(): Promise<SubagentOutcome[]> {
    while (this.running.size > 0) await Promise.all(this.running.values());
    return this.takeEnded();
  }
}

/** Every parent's background sub-agents, by the parent's id. */
export class BackgroundByParent {
  private readonly byParent = new Map<string, BackgroundSubagents>();

  of(parentId: string): BackgroundSubagents {
    let subagents = this.byParent.get(parentId);
    if (subagents === undefined) this.byParent.set(parentId, (subagents = new BackgroundSubagents()));
    return subagents;
  }

  /** How many of a parent's background sub-agents still run. */
  runningOf(parentId: string): number {
    return this.byParent.get(parentId)?.runningCount ?? 0;
  }

  /** Waits for a parent's background sub-agents as it ends (the rest of their outcomes unread), then forgets them. */
  async settle(parentId: string): Promise<void> {
    await this.byParent.get(parentId)?.collect();
    this.byParent.delete(parentId);
  }
}

/** What an agent that may delegate holds: its spawn, its collect, and the outcomes delivered with its results. */
export interface Delegation {
  readonly spawnSubagent: (task: string, wait: boolean) => Promise<SubagentOutcome>;
  readonly collectSubagents: () => Promise<SubagentOutcome[]>;
  /** Outcomes of background sub-agents that ended since the last read (read with the next tool result). */
  readonly endedSubagents: () => SubagentOutcome[];
}
