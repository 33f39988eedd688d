// Where shared cells lose. In a unified pool every row of a step attends over the used part of the whole pool
// (other agents' cells are masked out, but still visited); in copy mode each row attends over its own stream.
// With short tails the pool is mostly the shared trunk and both cost the same; as agents grow long private
// tails, each shared-cells row visits everyone's tail. This sweep gives every agent a private tail of L tokens
// before it generates, and measures the step.
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { SwarmModel } from "../src/runtime/loadModel";
import { createSwarmContext } from "../src/runtime/local/swarmContext";
import { type BenchMode } from "./benchFigures";
import { forcedTokens, trunkTokens } from "./benchTokens";

export interface TailRow {
  readonly model: string;
  readonly mode: Exclude<BenchMode, "usual-bill">;
  readonly agents: number;
  readonly trunkTokens: number;
  /** private tokens each agent read before generating */
  readonly tailTokens: number;
  readonly generatedTokens: number;
  readonly kvCellsEnd: number;
  readonly meanStepMs: number;
  readonly cpuMsPerStep: number;
  readonly dispatchesPerStep: number;
}

export interface TailSweepInput {
  readonly model: SwarmModel;
  readonly label: string;
  readonly threads: number;
  readonly agents: number;
  readonly trunkTokens: number;
  readonly tails: readonly number[];
  readonly generatedTokens: number;
}

async function measureTail(input: TailSweepInput, mode: TailRow["mode"], tail: number): Promise<TailRow> {
  const { model, agents, generatedTokens } = input;
  const unified = mode === "shared-cells";
  const stream = input.trunkTokens + tail + generatedTokens + 16;
  const swarm = await createSwarmContext(model, {
    maxAgents: agents,
    // Slack on top: the admission control reserves each fork's expected tail before it is used.
    kvCells: unified ? input.trunkTokens + 2 * agents * (tail + generatedTokens + 4) + 256 : stream * (agents + 2),
    threads: input.threads,
    unified,
  });
  try {
    const tokenizer = { tokenize: (text: string) => model.tokenize(text), bos: model.model.tokens.bos };
    await swarm.appendToTrunk(trunkTokens({ ...tokenizer, bos: null }, input.trunkTokens - 1) as Token[]);
    const forks = [];
    for (let i = 0; i < agents; i++)
      forks.push(await swarm.fork(`agent-${i + 1}`, { expectedTail: tail + generatedTokens + 2 }));
    // Each agent reads its own tail (all at once, so node-llama-cpp batches them), then they generate together.
    await Promise.all(
      forks.map((agent, i) => (tail > 0 ? agent.append(forcedTokens(tokenizer, i, tail) as Token[]) : undefined)),
    );
    const dispatches0 = swarm.stats().dispatches;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await Promise.all(
      forks.map((agent, i) =>
        agent.generate({
          maxTokens: generatedTokens,
          forcedTokens: forcedTokens(tokenizer, i + 1, generatedTokens) as Token[],
        }),
      ),
    );
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const stats = swarm.stats();
    return {
      model: input.label,
      mode,
      agents,
      trunkTokens: input.trunkTokens,
      tailTokens: tail,
      generatedTokens,
      kvCellsEnd: stats.usedCells,
      meanStepMs: wallMs / generatedTokens,
      cpuMsPerStep: (cpu.user + cpu.system) / 1000 / generatedTokens,
      dispatchesPerStep: (stats.dispatches - dispatches0) / generatedTokens,
    };
  } finally {
    await swarm.dispose();
  }
}

export async function runTailSweep(input: TailSweepInput): Promise<TailRow[]> {
  const rows: TailRow[] = [];
  for (const tail of input.tails) {
    for (const mode of ["shared-cells", "copy-mode"] as const) rows.push(await measureTail(input, mode, tail));
  }
  return rows;
}

export function formatTailTable(rows: readonly TailRow[]): string {
  const out = [
    "| model | N | P | private tail L | mode | KV cells | step ms | step CPU ms | dispatches/step |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    out.push(
      `| ${r.model} | ${r.agents} | ${r.trunkTokens} | ${r.tailTokens} | ${r.mode} | ${r.kvCellsEnd} | ` +
        `${r.meanStepMs.toFixed(1)} | ${r.cpuMsPerStep.toFixed(1)} | ${r.dispatchesPerStep.toFixed(2)} |`,
    );
  }
  return out.join("\n");
}
