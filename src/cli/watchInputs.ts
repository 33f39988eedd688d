// What `swarmboard watch` adds to a run: the standing options read from its flags (a rules file checked by its
// schema, the trigger stream checked to be a readable file) and the line the person reads for a trigger typed on stdin.
import type { WatchOptions } from "./runArgs";
import { checkTriggersFile, readTriggerRulesFile } from "./inputFiles";
import type { StandingOptions } from "../worker/standing/standingSwarm";
import type { TriggerDoor } from "../worker/swarm/seatSchedule";
import type { FastPathRoute } from "../protocol/triggers";

/** A watch's standing options, its files checked before anything is written or loaded. */
export async function standingOptions(watch: WatchOptions): Promise<StandingOptions> {
  return {
    ...(watch.triggers ? { triggerFiles: [await checkTriggersFile(watch.triggers)] } : {}),
    ...(watch.rules ? { rules: await readTriggerRulesFile(watch.rules) } : {}),
    ...(watch.pollMs ? { pollMs: watch.pollMs } : {}),
  };
}

export async function takeTrigger(standing: TriggerDoor, raw: unknown): Promise<{ triggerId: string; said: string }> {
  const taken = await standing.take(raw);
  return { triggerId: taken.trigger.id, said: triggerSaid(taken) };
}

/** What the person reads of a trigger taken (in this process, or by the server's `swarm/trigger`). */
export function triggerSaid(taken: { readonly route: FastPathRoute; readonly duplicate: boolean }): string {
  const { route } = taken;
  return taken.duplicate
    ? "taken before, nothing new"
    : route.route === "dropped"
      ? `dropped (${route.reason})`
      : route.route === "direct"
        ? `sent to ${route.agentId}, who owns its thread`
        : route.route === "parked"
          ? `waits for the owner of ${route.thread}`
          : "sent to the router";
}
