// How many seats can run at once under a stage graph. Stages run as soon as what they come after is done, and
// how long each runs is not known, so any set of stages none of which waits (even indirectly) on another may
// overlap: the widest moment is the heaviest such set. The search below finds it exactly; it prunes a branch as
// soon as it cannot beat the best found, which keeps it quick for the graphs recipes declare (a handful of
// stages; a graph of independent stages is found on the first branch).
import type { StagePlan } from "./stagePlan";

/** The most seats running at once; `seatsOf(i)` is stage i's seat count. */
export function widestOverlap(plan: StagePlan, seatsOf: (stage: number) => number): number {
  const before = plan.map(() => new Set<number>());
  plan.forEach((stage, i) => {
    for (const a of stage.after) {
      before[i]!.add(a);
      for (const b of before[a]!) before[i]!.add(b);
    }
  });
  const ordered = (i: number, j: number) => before[i]!.has(j) || before[j]!.has(i);
  const weight = plan.map((_, i) => seatsOf(i));
  let best = 0;
  const search = (candidates: readonly number[], sum: number): void => {
    const bound = sum + candidates.reduce((n, c) => n + weight[c]!, 0);
    if (bound <= best) return;
    const [first, ...rest] = candidates;
    if (first === undefined) {
      best = sum;
      return;
    }
    search(
      rest.filter((c) => !ordered(first, c)),
      sum + weight[first]!,
    );
    search(rest, sum);
  };
  search(
    plan.map((_, i) => i).sort((a, b) => weight[b]! - weight[a]!),
    0,
  );
  return best;
}
