// A run's events trace turned back into a turn script: every call each agent made, in order, with its
// arguments exactly as the model produced them. Running the script (`swarmboard run --script`) replays the
// run's calls through the real decode path, so a trace can be re-run, bisected or turned into a test.
import type { SwarmEvent } from "../protocol/swarmEvents";
import type { ScriptedCall, TurnScript } from "../protocol/turnScript";

export function scriptFromTrace(events: readonly SwarmEvent[]): TurnScript {
  const agents: Record<string, ScriptedCall[]> = {};
  const synthesists = new Set(
    events.flatMap((e) => (e.type === "agent-added" && e.agent.role === "synthesist" ? [e.agent.id] : [])),
  );
  for (const e of events) {
    if (e.type !== "tool-call") continue;
    const key = synthesists.has(e.agentId) || e.agentId.startsWith("synthesist-") ? "synthesist" : e.agentId;
    const rawArgs = typeof e.args === "string" ? e.args : JSON.stringify(e.args ?? {});
    // A malformed call is replayed as the text the model produced, so it fails the same way.
    (agents[key] ??= []).push({ tool: e.tool === "(malformed)" ? "finish" : e.tool, args: {}, rawArgs });
  }
  return { agents };
}
