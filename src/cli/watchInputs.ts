// What `swarmboard watch` adds to a run: the standing options read from its flags (a rules file checked by its
// schema, the trigger stream's path) and the line the person reads for a trigger typed on stdin.
import { readFileSync } from "node:fs";
import path from "node:path";
import { triggerRulesSchema } from "../protocol/triggers";
import { formatZodIssues } from "../protocol/zodIssues";
import type { WatchOptions } from "./runArgs";
import { InputError } from "./inputChecks";
import type { StandingOptions, StandingSwarm } from "../worker/standingSwarm";

export function standingOptions(watch: WatchOptions): StandingOptions {
  return {
    ...(watch.triggers ? { triggerFiles: [path.resolve(watch.triggers)] } : {}),
    ...(watch.rules ? { rules: readRules(watch.rules) } : {}),
    ...(watch.pollMs ? { pollMs: watch.pollMs } : {}),
  };
}

function readRules(file: string): StandingOptions["rules"] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new InputError(`--trigger-rules ${file}: ${(error as Error).message}`);
  }
  const parsed = triggerRulesSchema.safeParse(json);
  if (!parsed.success) throw new InputError(`--trigger-rules ${file}: ${formatZodIssues(parsed.error, "(rules)")}`);
  return parsed.data;
}

export async function takeTrigger(standing: StandingSwarm, raw: unknown): Promise<{ triggerId: string; said: string }> {
  const taken = await standing.take(raw);
  const { route } = taken;
  const said = taken.duplicate
    ? "taken before, nothing new"
    : route.route === "dropped"
      ? `dropped (${route.reason})`
      : route.route === "direct"
        ? `sent to ${route.agentId}, who owns its thread`
        : route.route === "parked"
          ? `waits for the owner of ${route.thread}`
          : "sent to the router";
  return { triggerId: taken.trigger.id, said };
}
