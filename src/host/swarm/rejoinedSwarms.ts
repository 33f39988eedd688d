// The shared worker outlives this window's connection to it: when the connection ends and the window attaches again
// (Restart Worker, a dropped socket), the swarms it showed live ran on meanwhile, and what they did in between reached
// no one here. Each is followed again and read back up to where its trace stood as its events began to flow again
// (the catch-up a reloaded window does, pastSwarms.ts); what the window missed is laid over what it shows (its lanes
// keep their detail), then the events held meanwhile are folded.
import { toErrorData } from "../../core/rpc/rpcPeer";
import { reduceSwarm, type AgentView } from "../../core/swarmView";
import { swarmFollowMethod } from "../../protocol/serverRpc";
import type { SwarmEvent } from "../../protocol/swarmEvents";
import { pastSwarmEventsMethod } from "../../protocol/swarmHistoryRpc";
import type { HostLog } from "../hostLog";
import type { WorkerProcess } from "../workerProcess";
import type { HostSwarmView } from "./swarmStatus";
import type { SwarmStore } from "./swarmStore";

type AgentState = Extract<SwarmEvent, { type: "agent-state" }>;

/**
 * `shown` brought up to date by its read-back events (trace up to the follow, whole board): every finding once, the
 * agents added meanwhile, each agent's last state and its tokens so far, and the end if it came.
 */
export function rejoinedView(shown: HostSwarmView, readBack: readonly SwarmEvent[]): HostSwarmView {
  let view = shown;
  const lastState = new Map<string, AgentState>();
  for (const e of readBack) {
    if (e.type === "swarm-started") continue; // shown already; folding it again would reset its start
    if (e.type === "agent-state") lastState.set(e.agentId, e);
    // The read-back sums each agent's text into one count: the count so far, not more to add to it.
    else if (e.type === "agent-text") view = withAgentTokens(view, e.agentId, e.tokens);
    else {
      if (e.type === "agent-added" && e.agent.parent !== undefined && !view.subAgents?.includes(e.agent.id))
        view = { ...view, subAgents: [...(view.subAgents ?? []), e.agent.id] };
      view = { ...view, ...reduceSwarm(view, e) }; // agent-added is idempotent, a board entry seen is kept once
    }
  }
  // Only a state it has not shown: each one folded would add a lane line the lane has already.
  for (const e of lastState.values())
    if (view.agents.find((a) => a.id === e.agentId)?.state !== e.state) view = { ...view, ...reduceSwarm(view, e) };
  return view;
}

function withAgentTokens(view: HostSwarmView, agentId: string, tokens: number): HostSwarmView {
  const set = ({ writing: _written, ...a }: AgentView): AgentView => ({ ...a, tokens });
  return { ...view, agents: view.agents.map((a) => (a.id === agentId ? set(a) : a)) };
}

/** Follows `swarmIds` (shown live here) on the new connection and lays over each what happened while it was gone. */
export async function rejoinServed(
  worker: WorkerProcess,
  store: SwarmStore,
  log: HostLog,
  swarmIds: readonly string[],
): Promise<void> {
  if (swarmIds.length === 0) return;
  for (const id of swarmIds) store.hold(id);
  try {
    const { traceBytes } = await worker.request(swarmFollowMethod, { swarmIds: [...swarmIds] });
    for (const swarmId of swarmIds) {
      const workspace = store.place(swarmId)?.workspace;
      const upTo = traceBytes?.[swarmId];
      if (workspace === undefined) continue;
      const { events } = await worker.request(pastSwarmEventsMethod, {
        workspace,
        swarmId,
        ...(upTo !== undefined ? { traceBytes: upTo } : {}),
      });
      const shown = store.swarm(swarmId);
      if (shown !== undefined) store.restore(rejoinedView(shown, events));
      store.release(swarmId);
    }
  } catch (err) {
    log.warn(`the swarms shown here could not be followed again on the shared worker: ${toErrorData(err).message}`);
  } finally {
    for (const id of swarmIds) store.release(id);
  }
}
