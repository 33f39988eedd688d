// A client of the shared worker that attaches to the swarms it runs as `swarmboard mcp --server` and a reloaded
// window do: follow, read each one's state so far up to where its trace stood, hold what arrives meanwhile, then
// fold live. Its views are what such a client shows; tests compare them with the launcher's.
import { connectToServer, type ServerConnection } from "../../src/cli/serverConnection";
import { ServedSwarms } from "../../src/cli/mcpServedSwarms";
import { emptySwarm, reduceSwarm, type SwarmViewState } from "../../src/core/swarmView";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import { swarmEventsNotification } from "../../src/protocol/swarmRpc";

/** Folds `events` into `views`' view of `swarmId` (a new one if it has none). */
export function foldInto(views: Map<string, SwarmViewState>, swarmId: string, events: readonly SwarmEvent[]): void {
  views.set(swarmId, events.reduce(reduceSwarm, views.get(swarmId) ?? emptySwarm(swarmId, Date.now())));
}

/** Connects, catches up with the swarms the server runs on `workspace`, and folds their events from then on. */
export async function caughtUpClient(
  version: string,
  workspace: string,
): Promise<{ connection: ServerConnection; views: Map<string, SwarmViewState> }> {
  const connection = await connectToServer("test", version);
  const views = new Map<string, SwarmViewState>();
  const served = new ServedSwarms(connection.peer, workspace, views);
  connection.peer.onNotification(swarmEventsNotification, ({ swarmId, events }) => {
    if (!served.hold(swarmId, events)) foldInto(views, swarmId, events);
  });
  let failure: string | undefined;
  await served.catchUp(
    (swarmId, events) => foldInto(views, swarmId, events),
    (why) => (failure = why),
  );
  if (failure !== undefined) throw new Error(`the catch-up failed: ${failure}`);
  return { connection, views };
}
