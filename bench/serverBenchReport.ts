// The server bench's table: one row per figure, the one-server arm beside the two-workers arm and their ratio.
import type { ArmFigures } from "./serverBenchFigures";

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const int = (n: number) => Math.round(n).toLocaleString("en-US");
const ratio = (a: number, b: number) => (b === 0 ? "-" : (a / b).toFixed(2));

/** Dispatches per step of all 2N researchers: each step one token of each (1.00 = all of them in every dispatch). */
export function dispatchesPerStep(arm: ArmFigures, agents: number): number {
  return arm.generatedTokens === 0 ? 0 : arm.generationDispatches / (arm.generatedTokens / (2 * agents));
}

export function trunkDecoded(arm: ArmFigures): number {
  return arm.first.trunkTokens - arm.first.trunkForked + arm.second.trunkTokens - arm.second.trunkForked;
}

export function startRatio(arm: ArmFigures): number {
  return arm.second.allStartedMs / arm.first.allStartedMs;
}

type Row = [label: string, value: (arm: ArmFigures) => number, show: (n: number) => string, compare?: boolean];

function rows(agents: number): Row[] {
  return [
    ["server processes", (a) => a.processes, int],
    ["peak RSS, VmHWM summed over them", (a) => a.peakRssBytes, mb, true],
    ["CPU time of them", (a) => a.cpuMs, sec, true],
    ["whole run: first launch to last end", (a) => a.wholeRunMs, sec, true],
    ["model loads (the servers' own count)", (a) => a.modelLoads, int],
    ["trunk tokens decoded (prefill)", trunkDecoded, int, true],
    ["trunk tokens forked from a live trunk", (a) => a.first.trunkForked + a.second.trunkForked, int],
    ["generation dispatches (llama_decode)", (a) => a.generationDispatches, int, true],
    ["tokens generated", (a) => a.generatedTokens, int],
    [
      `dispatches per step of all ${2 * agents} researchers`,
      (a) => dispatchesPerStep(a, agents),
      (n) => n.toFixed(2),
      true,
    ],
    ["first swarm: all agents started", (a) => a.first.allStartedMs, sec],
    ["second swarm: all agents started, first live", (a) => a.second.allStartedMs, sec, true],
    ["second / first (issue target <= 0.20)", startRatio, (n) => n.toFixed(2)],
  ];
}

export function serverBenchTable(one: ArmFigures, two: ArmFigures, agents: number): string {
  const lines = ["| | one server | two workers | one server / two workers |", "|---|---:|---:|---:|"];
  for (const [label, value, show, compare] of rows(agents))
    lines.push(
      `| ${label} | ${show(value(one))} | ${show(value(two))} | ${compare ? ratio(value(one), value(two)) : ""} |`,
    );
  const joined = (a: ArmFigures) => (a.second.poolSwarms >= 2 ? "yes" : "no");
  const live = (a: ArmFigures) => (a.firstLiveAtSecondStart ? "yes" : "NO (the ratio is not a live join)");
  lines.push(`| second swarm on the first's pool | ${joined(one)} | ${joined(two)} | |`);
  lines.push(`| first still running when the second had all started | ${live(one)} | ${live(two)} | |`);
  const outcomes = (a: ArmFigures) => `${a.first.outcome}, ${a.second.outcome}`;
  lines.push(`| outcomes | ${outcomes(one)} | ${outcomes(two)} | |`);
  const compactions = (a: ArmFigures) => a.first.compactions + a.second.compactions;
  lines.push(`| agent compactions | ${compactions(one)} | ${compactions(two)} | |`);
  return lines.join("\n");
}
