// A run's events trace turned back into a turn script: every call each agent made, in order, with its
// arguments exactly as the model produced them. Running the script (`swarmboard run --script`) replays the
// run's calls through the real decode path, so a trace can be re-run, bisected or turned into a test.
import type { SwarmEvent } from "../protocol/swarmEvents";
import type { ScriptedCall, TurnScript } from "../protocol/turnScript";

/** A malformed call's recorded text is `<tool> <arguments as far as they went>` when the tool name was one of the agent's. */
const namedCall = /^([a-z_]+) ([\s\S]*)$/;
const didNotFit = /^invalid-call: the arguments of ([a-z_]+) did not fit: you have room for (\d+) more tokens/;

/**
 * Text that makes a replayed call overrun the same room: one control character (a token of its own in a byte-level
 * vocabulary) per token of the room, after the arguments as far as they went. The scripted path cuts a call at the
 * room a sampled one has, so the replay gets the same "did not fit" error.
 */
export function overrunTail(room: number): string {
  return "\u0001".repeat(room + 1);
}

/** How a malformed call is replayed so that it fails the same way. */
function malformedCall(args: unknown, summary: string | undefined): ScriptedCall {
  const text = typeof args === "string" ? args : JSON.stringify(args ?? {});
  const named = namedCall.exec(text);
  const cut = summary === undefined ? undefined : didNotFit.exec(summary);
  // Arguments that ran past the agent's room: the same tool, its arguments as far as they went, and more.
  if (named && cut && cut[1] === named[1])
    return { tool: named[1], args: {}, rawArgs: named[2]! + overrunTail(Number(cut[2])) };
  // Otherwise the text the model produced, as the arguments of finish (which refuses them as not JSON).
  return { tool: "finish", args: {}, rawArgs: text };
}

export function scriptFromTrace(events: readonly SwarmEvent[]): TurnScript {
  const agents: Record<string, ScriptedCall[]> = {};
  const synthesists = new Set(
    events.flatMap((e) => (e.type === "agent-added" && e.agent.role === "synthesist" ? [e.agent.id] : [])),
  );
  const results = new Map(events.flatMap((e) => (e.type === "tool-result" ? [[e.callId, e.summary] as const] : [])));
  for (const e of events) {
    if (e.type !== "tool-call") continue;
    const key = synthesists.has(e.agentId) || e.agentId.startsWith("synthesist-") ? "synthesist" : e.agentId;
    const rawArgs = typeof e.args === "string" ? e.args : JSON.stringify(e.args ?? {});
    const call =
      e.tool === "(malformed)" ? malformedCall(e.args, results.get(e.callId)) : { tool: e.tool, args: {}, rawArgs };
    // The agent's free text before the call, forced where its family writes it.
    (agents[key] ??= []).push(e.thought ? { ...call, think: e.thought } : call);
  }
  return { agents };
}
