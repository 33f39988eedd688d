// `npm run bench:kv-types`: how many agents fit in the same memory with an F16 and a Q8_0 KV cache. The pool for
// a memory budget comes from the rule the worker uses (src/core/kvPoolSize.ts, the whole budget), the agents that
// fit are counted by the runtime's own admission (fork after fork with the tail as expectedTail until one is
// refused, after a real trunk is decoded), and the KV bytes are measured from llama.cpp's allocation. The model has
// Qwen2.5-0.5B's KV shape (24 layers, 2 KV heads of 64: 12 KiB per F16 cell) and a tiny width, so it writes fast.
import os from "node:os";
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import { sizeKvPool } from "../src/core/kvPoolSize";
import type { KvCacheType } from "../src/protocol/runtime";
import type { SwarmModel } from "../src/runtime/loadModel";
import { RuntimeOwner } from "../src/runtime/runtimeOwner";
import { KvAdmissionError } from "../src/runtime/runtimeErrors";
import { createSwarmContext } from "../src/runtime/local/swarmContext";
import { cachedWrittenModel } from "./benchModels";
import { trunkTokens } from "./benchTokens";
import { runBenchMain } from "./benchMain";

/** The bench's own runtime owner: its Llama, models and kept context. */
const benchRuntime = new RuntimeOwner();

const memoryMiB = Number(process.env.KV_FIT_MEMORY_MIB ?? 256);
const trunkLength = 2048;
const tails = [1024, 4096, 8192];
const types: readonly KvCacheType[] = ["f16", "q8_0"];

interface FitRow {
  type: string;
  bytesPerCell: number;
  poolCells: number;
  measuredKvMiB: number;
  fits: Record<number, number>;
}

async function countFits(model: SwarmModel, type: KvCacheType, poolCells: number, tail: number): Promise<number> {
  const swarm = await createSwarmContext(model, { maxAgents: 200, kvCells: poolCells, threads: 2, kvCacheType: type });
  try {
    const tokenizer = { tokenize: (text: string) => model.tokenize(text), bos: model.model.tokens.bos };
    await swarm.appendToTrunk(trunkTokens(tokenizer, trunkLength).slice(1) as Token[]);
    for (let n = 0; ; n++) {
      try {
        await swarm.fork(`agent-${n + 1}`, { expectedTail: tail });
      } catch (error) {
        if (error instanceof KvAdmissionError) return n;
        throw error;
      }
    }
  } finally {
    await swarm.dispose();
  }
}

async function measure(model: SwarmModel, type: KvCacheType): Promise<FitRow> {
  const { bytesPerCell, typeName } = model.kvCellCost(type);
  const budget = memoryMiB * 2 ** 20;
  const pool = sizeKvPool({
    bytesPerCell,
    freeBytes: budget,
    where: "RAM",
    memoryShare: 1,
    sequences: 202,
    tokensPerSequence: 1 << 20,
    caps: [],
  });
  const before = (await model.llama.getLlamaMemoryUsage()).cpuRam;
  const probe = await createSwarmContext(model, { maxAgents: 1, kvCells: pool.cells, threads: 1, kvCacheType: type });
  const measuredKvMiB = ((await model.llama.getLlamaMemoryUsage()).cpuRam - before) / 2 ** 20;
  await probe.dispose();
  const fits: Record<number, number> = {};
  for (const tail of tails) fits[tail] = await countFits(model, type, pool.cells, tail);
  return { type: typeName, bytesPerCell, poolCells: pool.cells, measuredKvMiB, fits };
}

async function main(): Promise<void> {
  const written = await cachedWrittenModel("kv-shape-0.5b", {
    layers: 24,
    width: 128,
    heads: 2,
    kvHeads: 2,
    ffn: 256,
    contextLength: 32768,
    tensorType: "F16",
    seed: 16,
    name: "swarmboard-bench-kv-shape-0.5b",
  });
  const model = await benchRuntime.loadModel({ modelPath: written.path, threads: 2 });
  try {
    const rows = [];
    for (const type of types) rows.push(await measure(model, type));
    console.log(`## Agents that fit in ${memoryMiB} MiB of KV (trunk ${trunkLength} tokens; ${os.cpus()[0]?.model})\n`);
    console.log(
      `| KV type | bytes/cell | pool cells | context MiB (node-llama-cpp's accounting: KV + buffers) | ${tails.map((t) => `agents, ${t}-token tails`).join(" | ")} |`,
    );
    console.log(`|---|---|---|---|${tails.map(() => "---").join("|")}|`);
    for (const r of rows)
      console.log(
        `| ${r.type} | ${r.bytesPerCell} | ${r.poolCells.toLocaleString("en-US")} | ${r.measuredKvMiB.toFixed(1)} | ${tails.map((t) => r.fits[t]).join(" | ")} |`,
      );
    const [f16, q8] = rows;
    console.log(
      `\nQ8_0 vs F16: ${(q8.poolCells / f16.poolCells).toFixed(2)}x the cells, agents ` +
        tails.map((t) => `${(q8.fits[t] / Math.max(1, f16.fits[t])).toFixed(2)}x (${t})`).join(", "),
    );
  } finally {
    await model.dispose();
  }
}

runBenchMain(main);
