// Turns benchmark rows into the markdown tables printed at the end of a run (and pasted into RESULTS.md):
// one table per model and trunk length, each mode's row followed by its ratios against the usual bill.
import { type BenchFigures, type BenchMode, type BenchRow } from "./benchFigures";

const modeOrder: readonly BenchMode[] = ["shared-cells", "copy-mode", "remote", "remote-split", "usual-bill"];

function num(value: number | null | undefined, digits = 0): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "-";
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function ratio(value: number, base: number | undefined): string {
  if (base === undefined || base === 0 || !Number.isFinite(value)) return "-";
  const r = value / base;
  return `${r >= 10 ? r.toFixed(0) : r >= 1 ? r.toFixed(2) : r.toFixed(3)}x`;
}

function figuresRow(mode: BenchMode, agents: number, f: BenchFigures, usual: BenchFigures | undefined): string {
  const cells = [
    String(agents),
    mode,
    num(f.forkMsPerAgent, 2),
    num(f.prefillTokens),
    num(f.kvCellsEnd),
    num(f.kvBytesEnd / 2 ** 20, 1),
    num(f.dispatchesPerStep, 2),
    num(f.meanStepMs, 1),
    num(f.cpuMsPerStep, 1),
    num(f.aggregateTokensPerSecond, 1),
    num(f.allFirstTokenMs),
    num(f.allFirstTokenCpuMs),
    // Against the usual bill: work and space as fractions, speed as multiples (above 1x is better).
    mode === "usual-bill" ? "1x" : ratio(f.prefillTokens, usual?.prefillTokens),
    mode === "usual-bill" ? "1x" : ratio(f.kvCellsEnd, usual?.kvCellsEnd),
    mode === "usual-bill" ? "1x" : ratio(usual?.allFirstTokenMs ?? NaN, f.allFirstTokenMs),
    mode === "usual-bill" ? "1x" : ratio(f.aggregateTokensPerSecond, usual?.aggregateTokensPerSecond),
  ];
  return `| ${cells.join(" | ")} |`;
}

const header =
  "| N | mode | fork ms/agent | prefill tokens | KV cells | KV MiB | dispatches/step | step ms | step CPU ms | agg tok/s | all first token ms | all first token CPU ms | prefill vs usual | cells vs usual | first-token speedup | tok/s vs usual |\n" +
  "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|";

/** One markdown table per (model, trunk length). */
export function formatBenchTables(rows: readonly BenchRow[]): string {
  const out: string[] = [];
  const groups = new Map<string, BenchRow[]>();
  for (const row of rows) {
    const key = `${row.config.model} · P = ${row.config.trunkTokens} · T = ${row.config.generatedTokens}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  for (const [title, group] of groups) {
    out.push(`### ${title}`, "", header);
    const agentCounts = [...new Set(group.map((r) => r.config.agents))].sort((a, b) => a - b);
    for (const agents of agentCounts) {
      const byMode = new Map(group.filter((r) => r.config.agents === agents).map((r) => [r.config.mode, r]));
      const usual = byMode.get("usual-bill")?.figures;
      for (const mode of modeOrder) {
        const row = byMode.get(mode);
        if (row === undefined) continue;
        out.push(
          row.figures
            ? figuresRow(mode, agents, row.figures, usual)
            : `| ${agents} | ${mode} | skipped: ${row.skipped ?? "?"} |||||||||||||||`,
        );
      }
    }
    out.push("");
  }
  return out.join("\n");
}

function find(
  rows: readonly BenchRow[],
  model: string,
  mode: BenchMode,
  agents: number,
  trunk: number,
): BenchFigures | undefined {
  return rows.find(
    (r) =>
      r.config.model === model &&
      r.config.mode === mode &&
      r.config.agents === agents &&
      r.config.trunkTokens === trunk,
  )?.figures;
}

/** The figures the closing note quotes, per model, at the largest trunk and the agent counts the issue names. */
export function formatHighlights(rows: readonly BenchRow[]): string {
  const out: string[] = [];
  for (const model of new Set(rows.map((r) => r.config.model))) {
    const mine = rows.filter((r) => r.config.model === model);
    const trunk = Math.max(...mine.map((r) => r.config.trunkTokens));
    const maxAgents = Math.max(...mine.map((r) => r.config.agents));
    const midAgents = mine.some((r) => r.config.agents === 8) ? 8 : maxAgents;
    const shared = (n: number): BenchFigures | undefined => find(rows, model, "shared-cells", n, trunk);
    const copy = find(rows, model, "copy-mode", maxAgents, trunk);
    const usual = find(rows, model, "usual-bill", midAgents, trunk);
    const big = shared(maxAgents);
    out.push(`${model}, P = ${trunk}:`);
    if (big) {
      out.push(
        `  fork: ${num(big.forkMsPerAgent, 2)} ms per agent (shared cells) vs ${num(copy?.forkMsPerAgent, 2)} ms (copy mode); ` +
          `KV cells at the end with N = ${maxAgents}: ${num(big.kvCellsEnd)} (shared) vs ${num(copy?.kvCellsEnd)} (copy)`,
      );
      out.push(
        `  dispatches per step at N = ${maxAgents}: ${num(big.dispatchesPerStep, 2)} (shared), ${num(copy?.dispatchesPerStep, 2)} (copy)`,
      );
    }
    const mid = shared(midAgents);
    if (mid && usual) {
      out.push(
        `  N = ${midAgents}: prefill ${num(mid.prefillTokens)} vs ${num(usual.prefillTokens)} tokens (usual bill); ` +
          `KV cells ${num(mid.kvCellsEnd)} vs ${num(usual.kvCellsEnd)}; all first tokens after ${num(mid.allFirstTokenMs)} vs ${num(usual.allFirstTokenMs)} ms`,
      );
    }
    const one = shared(1);
    if (mid && one) {
      out.push(
        `  aggregate tok/s: N = ${midAgents} ${num(mid.aggregateTokensPerSecond, 1)} vs N = 1 ${num(one.aggregateTokensPerSecond, 1)} ` +
          `(${ratio(mid.aggregateTokensPerSecond, one.aggregateTokensPerSecond)}); step ${num(mid.meanStepMs, 1)} vs ${num(one.meanStepMs, 1)} ms; ` +
          `per CPU second ${num((midAgents * 1000) / mid.cpuMsPerStep, 1)} vs ${num(1000 / one.cpuMsPerStep, 1)} tok (${ratio(midAgents * one.cpuMsPerStep, mid.cpuMsPerStep)})`,
      );
    }
  }
  return out.join("\n");
}

/**
 * Per model and trunk: each N's step time relative to N = 1 and its dispatches per step, in shared-cells mode. The
 * seed's claim (ten agents at nearly the per-step speed of one) is the N = 10 row: near 1x with 1 dispatch per step.
 */
export function formatScaling(rows: readonly BenchRow[]): string {
  const out = [
    "| model | P | N | step ms | step vs N = 1 | dispatches/step | agg tok/s | agg tok/s vs N = 1 |",
    "|---|---|---|---|---|---|---|---|",
  ];
  const shared = rows.filter((r) => r.config.mode === "shared-cells" && r.figures !== undefined);
  for (const model of new Set(shared.map((r) => r.config.model))) {
    for (const trunk of new Set(shared.filter((r) => r.config.model === model).map((r) => r.config.trunkTokens))) {
      const one = find(rows, model, "shared-cells", 1, trunk);
      const group = shared
        .filter((r) => r.config.model === model && r.config.trunkTokens === trunk)
        .sort((a, b) => a.config.agents - b.config.agents);
      for (const { config, figures: f } of group) {
        if (f === undefined) continue;
        out.push(
          `| ${model} | ${trunk} | ${config.agents} | ${num(f.meanStepMs, 1)} | ${ratio(f.meanStepMs, one?.meanStepMs)} | ` +
            `${num(f.dispatchesPerStep, 2)} | ${num(f.aggregateTokensPerSecond, 1)} | ${ratio(f.aggregateTokensPerSecond, one?.aggregateTokensPerSecond)} |`,
        );
      }
    }
  }
  return out.join("\n");
}
