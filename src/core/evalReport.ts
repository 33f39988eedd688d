// The eval's report: totals per agent count over the tasks, and the text table the CLI prints.
import type { EvalArmTotals, EvalReport, EvalRun } from "../protocol/evalSuite";

/** Totals for each arm, in the order given: sums, except KV cells (the most any run of the arm held at once). */
export function evalArmTotals(runs: readonly EvalRun[], arms: readonly number[]): EvalArmTotals[] {
  return arms.map((agents) => {
    const mine = runs.filter((r) => r.agents === agents);
    const sum = (pick: (r: EvalRun) => number) => mine.reduce((n, r) => n + pick(r), 0);
    return {
      agents,
      tasks: mine.length,
      solved: mine.filter((r) => r.solved).length,
      wallMs: sum((r) => r.wallMs),
      tokens: sum((r) => r.tokens),
      kvCells: mine.reduce((n, r) => Math.max(n, r.kvCells), 0),
      merges: sum((r) => r.merges),
      conflicts: sum((r) => r.conflicts),
      refusedMerges: sum((r) => r.refusedMerges),
      duplicateClaims: sum((r) => r.duplicateClaims),
    };
  });
}

const columns = ["task", "kind", "agents", "solved", "wall", "tokens", "KV cells", "merges", "conflicts"];
const lastColumns = ["refused", "dup claims"];

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

function counts(r: Pick<EvalRun, "wallMs" | "tokens" | "kvCells" | "merges" | "conflicts">): string[] {
  return [seconds(r.wallMs), String(r.tokens), String(r.kvCells), String(r.merges), String(r.conflicts)];
}

/** Left-aligns text columns, right-aligns the numbers (every column from "agents" on). */
function alignRows(rows: readonly string[][]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) =>
    r
      .map((cell, c) => (c < 2 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join("  ")
      .trimEnd(),
  );
}

/** The table: one row per task and arm, one total row per arm, then why each unsolved run failed. */
export function formatEvalTable(report: EvalReport): string {
  const how = report.forced ? "forced trajectories" : "free-running model";
  const rows = [[...columns, ...lastColumns]];
  for (const r of report.runs)
    rows.push([
      r.task,
      r.kind,
      String(r.agents),
      r.solved ? "yes" : "NO",
      ...counts(r),
      String(r.refusedMerges),
      String(r.duplicateClaims),
    ]);
  for (const t of report.totals)
    rows.push([
      "total",
      `${t.tasks} tasks`,
      String(t.agents),
      `${t.solved}/${t.tasks}`,
      ...counts(t),
      String(t.refusedMerges),
      String(t.duplicateClaims),
    ]);
  const notes = report.runs
    .filter((r) => !r.solved && r.note !== undefined)
    .map((r) => `  ${r.task} (${r.agents} agent${r.agents === 1 ? "" : "s"}): ${r.note}`);
  return [
    `swarmboard eval: ${report.suite}, model ${report.model}, ${how}`,
    ...alignRows(rows),
    ...(notes.length > 0 ? ["", "unsolved:", ...notes] : []),
    "",
  ].join("\n");
}
