// The end of a `swarmboard run` on the terminal: its exit codes and its summary (outcome, report, branches, each
// agent's end, findings by kind, the budget), for a run in this process and one on the shared server alike.
import type { SwarmEvent } from "../protocol/swarmEvents";
import type { SwarmSummary } from "../worker/swarm/swarmSession";
import { budgetLine } from "./terminalView";

/** Exit codes: how a run ended. */
export const exitCodes = { completed: 0, failed: 1, usage: 2, budget: 3, stopped: 4 } as const;

/** What a run's summary says of its end (an in-process run's SwarmSummary, or a server run's events). */
export interface RunEnd {
  readonly outcome: SwarmSummary["outcome"];
  readonly reason: string;
  readonly reportPath: string;
  readonly integrationBranch: string;
}

export function summaryText(
  end: RunEnd,
  agentLines: readonly string[],
  events: readonly SwarmEvent[],
  eventsFile: string,
): string {
  const kinds = new Map<string, number>();
  for (const e of events) if (e.type === "board-entry") kinds.set(e.entry.kind, (kinds.get(e.entry.kind) ?? 0) + 1);
  const stats = [...events].reverse().find((e) => e.type === "kv-stats");
  return [
    "",
    `== ${end.outcome}: ${end.reason}`,
    `report:   ${end.reportPath}`,
    `events:   ${eventsFile}`,
    `branches: ${end.integrationBranch} (integration)`,
    ...agentLines.map((line) => `          ${line}`),
    `findings: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(", ") || "none"}`,
    ...(stats?.type === "kv-stats" ? [`budget:   ${budgetLine(stats.stats)}`] : []),
  ].join("\n");
}
