// The run's usage curve for the panel's chart: one sample per kv-stats report (KV cells in use, tokens/s). Past
// a cap every other sample is dropped, so a long run keeps its whole shape in a bounded number of points.
import type { SwarmStats } from "../../protocol/runtime";
import type { UsageSample } from "../../protocol/webviewMessages";

export const usageSamplesKept = 240;

export function withUsageSample(
  samples: readonly UsageSample[] | undefined,
  stats: SwarmStats,
  time: number,
): UsageSample[] {
  const next = [
    ...(samples ?? []),
    { time, usedCells: stats.usedCells, poolCells: stats.poolCells, tokensPerSecond: stats.tokensPerSecond },
  ];
  return next.length <= usageSamplesKept ? next : next.filter((_, i) => i % 2 === 0 || i === next.length - 1);
}
