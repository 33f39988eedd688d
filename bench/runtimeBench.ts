// `npm run bench:runtime`: shared cells, copy mode and the usual bill side by side, for each model, trunk
// length P and agent count N. Prints a markdown table per (model, P) with ratios against the usual bill, the
// figures RESULTS.md quotes, and, with --json FILE, every figure as JSON.
import { writeFileSync } from "node:fs";
import os from "node:os";
import { gpuChoiceOf } from "../src/runtime/gpuBackend";
import type { SwarmModel } from "../src/runtime/loadModel";
import { RuntimeOwner } from "../src/runtime/runtimeOwner";
import { type BenchConfig, type BenchMode, type BenchRow } from "./benchFigures";
import { benchModels, type BenchModel } from "./benchModels";
import { parseBenchOptions, type BenchOptions } from "./benchOptions";
import { formatBenchTables, formatHighlights, formatScaling } from "./benchReport";
import { forcedTokens, trunkTokens } from "./benchTokens";
import { runForkedAgents } from "./forkedAgents";
import { formatTailTable, runTailSweep, type TailRow } from "./privateTails";
import { remoteArmMissing, runRemoteArm } from "./remoteArm";
import { runUsualBill } from "./usualBill";
import { flashAttentionFor } from "../src/runtime/local/swarmContextOptions";
import { runBenchMain } from "./benchMain";

/** The bench's own runtime owner: its Llama, models and kept context. */
const benchRuntime = new RuntimeOwner();

const batchSize = 512;

function machine(options: BenchOptions, build: string, loadAtStart: number): Record<string, string | number> {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.arch()} ${os.release()}`,
    node: process.version,
    threads: options.threads,
    batchSize,
    llamaBuild: build,
    // Other work on the machine inflates wall times; the CPU-time columns are immune to it.
    loadAverage1mAtStart: loadAtStart.toFixed(2),
    loadAverage1mAtEnd: os.loadavg()[0].toFixed(2),
  };
}

async function runOne(model: SwarmModel, config: BenchConfig, options: BenchOptions): Promise<BenchRow> {
  const tokenizer = { tokenize: (text: string) => model.tokenize(text), bos: model.model.tokens.bos };
  const trunk = trunkTokens(tokenizer, config.trunkTokens);
  const forced = Array.from({ length: config.agents }, (_, agent) =>
    forcedTokens(tokenizer, agent, config.generatedTokens),
  );
  const common = { config, threads: options.threads, trunk, forced, batchSize };
  if (config.mode === "remote" || config.mode === "remote-split") {
    const missing = remoteArmMissing();
    if (missing !== undefined) return { config, skipped: missing };
    const remote = {
      modelPath: model.facts.path,
      threads: options.threads,
      bytesPerCell: model.facts.kvBytesPerCell,
      unified: config.mode === "remote",
    };
    return { config, figures: await runRemoteArm({ ...remote, config, trunk }) };
  }
  if (config.mode !== "usual-bill") return { config, figures: await runForkedAgents({ model, ...common }) };
  const prefill = config.agents * config.trunkTokens;
  if (prefill > options.usualBillMaxPrefill) {
    return {
      config,
      skipped: `N x P = ${prefill} prefill tokens > --usual-bill-max-prefill ${options.usualBillMaxPrefill}`,
    };
  }
  return {
    config,
    figures: await runUsualBill({
      model: model.model,
      bytesPerCell: model.facts.kvBytesPerCell,
      // The same attention kernel as the swarm's context, so the two arms differ only in their prefill.
      flashAttention: flashAttentionFor(false, Math.min(model.facts.keyHeadDim, model.facts.valueHeadDim)),
      ...common,
    }),
  };
}

function progressLine(row: BenchRow, done: number, total: number): string {
  const { config: c, figures: f } = row;
  const what = `[${done}/${total}] ${c.model} P=${c.trunkTokens} N=${c.agents} ${c.mode}`;
  if (f === undefined) return `${what}: skipped (${row.skipped})`;
  return (
    `${what}: prefill ${f.prefillTokens} tok in ${f.prefillMs.toFixed(0)} ms, step ${f.meanStepMs.toFixed(1)} ms, ` +
    `${Number.isFinite(f.dispatchesPerStep) ? f.dispatchesPerStep.toFixed(2) : "-"} dispatches/step, ${f.kvCellsEnd} cells, all first tokens ${f.allFirstTokenMs.toFixed(0)} ms`
  );
}

async function benchModel(
  bench: BenchModel,
  options: BenchOptions,
  rows: BenchRow[],
  tailRows: TailRow[],
): Promise<string> {
  const model = await benchRuntime.loadModel({
    modelPath: bench.path,
    threads: options.threads,
    gpu: gpuChoiceOf(options.gpu),
  });
  const modes: readonly BenchMode[] = options.modes;
  try {
    if (model.notice) console.log(`note: ${model.notice}`);
    const where = await model.placement();
    console.log(
      `placement ${bench.label}: ${where.backend}${where.devices.length > 0 ? ` (${where.devices.join(", ")})` : ""}, ` +
        `${where.gpuLayers}/${where.modelLayers} layers offloaded, KV cells in ${where.kvOn}` +
        (where.vramUsedBytes === undefined
          ? ""
          : `, VRAM ${(where.vramUsedBytes / 2 ** 30).toFixed(2)} of ${((where.vramTotalBytes ?? 0) / 2 ** 30).toFixed(1)} GiB`),
    );
    // One throwaway round per mode first: the first context of a process pays for graph and buffer setup.
    for (const mode of modes) {
      await runOne(model, { model: bench.label, mode, agents: 2, trunkTokens: 32, generatedTokens: 4 }, options);
    }
    const total = options.trunks.length * options.agents.length * modes.length;
    for (const trunk of options.trunks) {
      for (const agents of options.agents) {
        // Modes interleave per (P, N) so that drift in the machine's load spreads over all three.
        for (const mode of modes) {
          const config: BenchConfig = {
            model: bench.label,
            mode,
            agents,
            trunkTokens: trunk,
            generatedTokens: options.generate,
          };
          const row = await runOne(model, config, options);
          rows.push(row);
          console.log(progressLine(row, rows.filter((r) => r.config.model === bench.label).length, total));
        }
      }
    }
    if (options.tails.length > 0) {
      const sweep = await runTailSweep({
        model,
        label: bench.label,
        threads: options.threads,
        agents: options.tailAgents,
        trunkTokens: Math.min(...options.trunks),
        tails: options.tails,
        generatedTokens: options.generate,
      });
      for (const row of sweep)
        console.log(
          `tail sweep ${row.model} L=${row.tailTokens} ${row.mode}: step ${row.meanStepMs.toFixed(1)} ms, ${row.cpuMsPerStep.toFixed(1)} CPU ms`,
        );
      tailRows.push(...sweep);
    }
    return model.build;
  } finally {
    await model.dispose();
  }
}

async function main(): Promise<void> {
  const options = parseBenchOptions(process.argv.slice(2));
  const started = performance.now();
  const loadAtStart = os.loadavg()[0];
  const models = await benchModels(options.modelPaths, options.quick);
  for (const m of models) console.log(`model ${m.label}: ${m.path} (${m.origin})`);
  const rows: BenchRow[] = [];
  const tailRows: TailRow[] = [];
  let build = "unknown";
  for (const m of models) build = await benchModel(m, options, rows, tailRows);
  const facts = machine(options, build, loadAtStart);
  const minutes = (performance.now() - started) / 60000;
  console.log(
    `\n## Machine\n\n${Object.entries(facts)
      .map(([k, v]) => `- ${k}: ${v}`)
      .join("\n")}\n- wall: ${minutes.toFixed(1)} min\n`,
  );
  console.log(formatBenchTables(rows));
  if (tailRows.length > 0) console.log(`### Step time against private tail length\n\n${formatTailTable(tailRows)}\n`);
  console.log(`### Step time against N (shared cells)\n\n${formatScaling(rows)}\n`);
  console.log(`## Highlights\n\n${formatHighlights(rows)}`);
  if (options.jsonPath) {
    writeFileSync(
      options.jsonPath,
      JSON.stringify({ machine: facts, options, models, wallMinutes: minutes, rows, tailRows }, null, 2),
    );
    console.log(`\nfigures written to ${options.jsonPath}`);
  }
}

runBenchMain(main);
