// Runs a stage graph as declared: each stage starts the moment every stage it comes after is done, with their
// results as its input, so independent branches never wait for each other. A stage is skipped (and with it
// everything after it) when `mayStart` says no at the moment it would start (the swarm stopped, or its wall
// clock calls for fan-in). The first failure is rethrown once every branch still running has settled.
import type { StagePlan } from "./stagePlan";

export type StageRun<T> = (stage: number, before: readonly T[]) => Promise<T>;

/** Each stage's result in plan order; undefined for a stage that never started. */
export async function runStageGraph<T>(
  plan: StagePlan,
  run: StageRun<T>,
  mayStart: () => boolean,
): Promise<Array<T | undefined>> {
  const started: Array<Promise<T | undefined>> = [];
  plan.forEach((stage, i) => {
    started.push(
      Promise.all(stage.after.map((a) => started[a]!)).then((before) => {
        if (before.some((b) => b === undefined) || !mayStart()) return undefined;
        return run(i, before as T[]);
      }),
    );
  });
  const settled = await Promise.allSettled(started);
  const failed = settled.find((s) => s.status === "rejected");
  if (failed !== undefined) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<T | undefined>).value);
}
