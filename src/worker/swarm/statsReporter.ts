// The KV budget as the views see it: reported every quarter second while it changes (not on every token, which
// would flood the event stream), and a remote engine's comings and goings as they happen.
import type { EngineContext } from "../../runtime/port/engine";
import type { AgentEventDraft } from "../agent/agentEventDraft";

const everyMs = 250;

/** Starts reporting; returns the stop. */
export function reportStats(context: EngineContext, emit: (event: AgentEventDraft) => void): () => void {
  const engineState = context.onEngineState((engine) => emit({ type: "engine-state", engine }));
  let last = "";
  const timer = setInterval(() => {
    const stats = context.stats();
    const key = JSON.stringify(stats);
    if (key !== last) emit({ type: "kv-stats", stats });
    last = key;
  }, everyMs);
  return () => {
    clearInterval(timer);
    engineState.dispose();
  };
}
