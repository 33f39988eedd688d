// What an agent reads after each call: the call's result (or its error), the messages delivered at this point,
// the findings of others that landed meanwhile, the watchdog's notes, and what is left of its budgets, as one
// JSON object.
import type { SwarmBoard } from "../../core/swarmBoard";
import type { AgentEventDraft } from "./agentEventDraft";
import type { Delegation } from "./backgroundSubagents";
import type { CallOutcome } from "./tools/toolDefinition";

export interface ReadbackDeps {
  readonly id: string;
  readonly board: SwarmBoard;
  readonly emit: (event: AgentEventDraft) => void;
  readonly delegation?: Pick<Delegation, "endedSubagents">;
}

/** The text the agent reads; `atIterationStart` also delivers the swarm channel's messages. */
export function readback(
  deps: ReadbackDeps,
  outcome: CallOutcome,
  atIterationStart: boolean,
  notes: readonly string[],
  left?: string,
): string {
  const delivered = [
    ...deps.board.deliver(deps.id, "tool-call-returned").map((m) => ({ m, point: "tool-call-returned" as const })),
    ...(atIterationStart ? deps.board.deliver(deps.id, "iteration-start") : []).map((m) => ({
      m,
      point: "iteration-start" as const,
    })),
  ];
  for (const { m, point } of delivered)
    deps.emit({ type: "message-delivered", agentId: deps.id, messageId: m.id, point });
  const messages = delivered.map(({ m }) => ({
    from: m.from,
    to: typeof m.to === "string" ? m.to : m.to.agent,
    text: m.text,
  }));
  const findings = deps.board
    .newEntriesFor(deps.id)
    .filter((e) => e.author !== deps.id && e.kind !== "MESSAGE")
    .map((e) => ({ id: e.id, kind: e.kind, author: e.author, text: e.text }));
  // Background sub-agents that ended meanwhile (spawn_subagent with wait false).
  const subagents = deps.delegation?.endedSubagents() ?? [];
  return JSON.stringify({
    ...(outcome.ok ? { result: outcome.result } : { error: outcome.error ?? "failed" }),
    ...(messages.length > 0 ? { messages } : {}),
    ...(findings.length > 0 ? { findings } : {}),
    ...(subagents.length > 0 ? { subagents } : {}),
    ...(notes.length > 0 ? { notes } : {}),
    // Last, so it reads as a trailing line of every result (src/core/budgetLeft.ts).
    ...(left !== undefined ? { left } : {}),
  });
}
