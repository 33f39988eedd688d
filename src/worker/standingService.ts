// The worker's side of a standing swarm's inputs from outside: a trigger (the editor's errors, a client of
// `swarm/trigger`) and a save (the recipe's tests on the checkout, saveTestRuns.ts). Each finds the standing swarm
// by id; a swarm that is not standing is refused with `not-standing`, which tells the host to stop sending.
import { HandlerError } from "../core/rpc/rpcPeer";
import type { ServicePeer } from "../core/rpc/servicePeer";
import type { Disposable } from "../core/disposable";
import { swarmSavedMethod, swarmTriggerMethod } from "../protocol/triggers";
import type { TriggerDoor } from "./swarm/seatSchedule";
import type { SwarmSession } from "./swarm/swarmSession";

export function serveStanding(peer: ServicePeer, find: (swarmId: string) => SwarmSession | undefined): Disposable[] {
  const standing = (swarmId: string): TriggerDoor => {
    const found = find(swarmId)?.schedule.triggers;
    if (found === undefined)
      throw new HandlerError("not-standing", `No standing swarm ${swarmId} runs in this worker (swarmboard watch).`);
    return found;
  };
  return [
    peer.handle(swarmTriggerMethod, async ({ swarmId, trigger }) => {
      const taken = await standing(swarmId)
        .take(trigger)
        .catch((error: Error) => {
          throw new HandlerError("trigger-refused", error.message);
        });
      return { triggerId: taken.trigger.id, route: taken.route, duplicate: taken.duplicate };
    }),
    peer.handle(swarmSavedMethod, async ({ swarmId }) => ({ testRun: await standing(swarmId).saved() })),
  ];
}
