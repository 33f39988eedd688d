// The user's swarms that other clients started on the shared server, as `swarmboard mcp --server` sees them (issue 26:
// a client sees the user's swarms, filtered to its folders): those the server runs on this MCP server's workspace. Each
// is followed from now on and its state so far folded from its trace and board (history/events), as a window does
// after a reload. Following comes first, so nothing falls between the trace and the stream (the caller holds what
// arrives meanwhile), and the trace is read only up to where it stood then, so no event is folded twice (a board
// entry seen twice is kept once by the reducer).
import { toErrorData, type RpcPeer } from "../core/rpc/rpcPeer";
import { emptySwarm, reduceSwarm, type SwarmViewState } from "../core/swarmView";
import { serverStatusMethod, swarmFollowMethod } from "../protocol/serverRpc";
import type { SwarmEvent } from "../protocol/swarmEvents";
import { listSwarmsMethod, pastSwarmEventsMethod } from "../protocol/swarmHistoryRpc";

/** The swarms the server runs on `workspace` that are not `known` here: followed on `peer`, folded from their traces. */
export async function adoptServedSwarms(
  peer: RpcPeer,
  workspace: string,
  known: (swarmId: string) => boolean,
): Promise<SwarmViewState[]> {
  const running = new Set((await peer.request(serverStatusMethod, {})).swarms.filter((id) => !known(id)));
  if (running.size === 0) return [];
  const { swarms } = await peer.request(listSwarmsMethod, { workspace });
  const served = swarms.filter((s) => running.has(s.swarmId));
  if (served.length === 0) return [];
  const { traceBytes } = await peer.request(swarmFollowMethod, { swarmIds: served.map((s) => s.swarmId) });
  const views: SwarmViewState[] = [];
  for (const past of served) {
    const upTo = traceBytes?.[past.swarmId];
    const { events } = await peer.request(pastSwarmEventsMethod, {
      workspace,
      swarmId: past.swarmId,
      ...(upTo !== undefined ? { traceBytes: upTo } : {}),
    });
    let view: SwarmViewState = { ...emptySwarm(past.swarmId, past.createdAt), goal: past.goal, recipe: past.recipe };
    for (const e of events) view = reduceSwarm(view, e);
    views.push(view);
  }
  return views;
}

/** The served swarms an MCP server lists beside its own: adopted into its views by `catchUp`. */
export class ServedSwarms {
  /** Swarms other clients started (their approvals are theirs to answer, not answered unattended here). */
  readonly adopted = new Set<string>();
  /** While a catch-up reads traces: events of swarms not in the views yet, held until their trace is folded. */
  private held: Map<string, SwarmEvent[]> | undefined;

  constructor(
    private readonly peer: RpcPeer,
    private readonly workspace: string,
    private readonly views: Map<string, SwarmViewState>,
  ) {}

  /** Whether `events` were held (a catch-up is reading their swarm's trace); `catchUp` hands them on after. */
  hold(swarmId: string, events: readonly SwarmEvent[]): boolean {
    if (this.held === undefined || this.views.has(swarmId)) return false;
    this.held.set(swarmId, [...(this.held.get(swarmId) ?? []), ...events]);
    return true;
  }

  /** Adopts the served swarms not in the views yet; then hands the held events to `apply`. Never throws. */
  async catchUp(apply: (swarmId: string, events: SwarmEvent[]) => void, failed: (why: string) => void): Promise<void> {
    this.held = new Map();
    try {
      for (const view of await adoptServedSwarms(this.peer, this.workspace, (id) => this.views.has(id))) {
        this.adopted.add(view.id);
        this.views.set(view.id, view);
      }
    } catch (err) {
      failed(toErrorData(err).message);
    } finally {
      const held = this.held;
      this.held = undefined;
      for (const [swarmId, events] of held) apply(swarmId, events);
    }
  }
}
