// Where a worker's memory goes: its peak resident set split into the model's weights, the KV pool and the rest
// (llama.cpp's compute and output buffers, node-llama-cpp's and our per-sequence state, Node itself), for N agents
// that each generate T tokens after a shared trunk. Each N runs in its own child process, so one peak cannot hide
// another's; the rest per agent is the slope of the rest between the smallest and the largest N.
// Usage: node dist/bench/memorySplit.js [--model PATH] [--agents 1,8,32] [--trunk 256] [--generate 32] [--threads 2]
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import { RuntimeOwner } from "../src/runtime/runtimeOwner";
import { createSwarmContext } from "../src/runtime/local/swarmContext";
import { cachedWrittenModel, realisticBenchSpec } from "./benchModels";
import { forcedTokens, trunkTokens } from "./benchTokens";
import { runBenchMain } from "./benchMain";
import { BenchUsageError } from "./benchOptions";

/** The bench's own runtime owner: its Llama, models and kept context. */
const benchRuntime = new RuntimeOwner();

const MiB = 2 ** 20;

interface Options {
  model: string | undefined;
  agents: number[];
  trunk: number;
  generate: number;
  threads: number;
  one: number | undefined;
}

interface Sample {
  agents: number;
  /** resident before the model was loaded: Node and the addon */
  baseMiB: number;
  peakMiB: number;
  weightsMiB: number;
  kvMiB: number;
  poolCells: number;
}

function parse(argv: readonly string[]): Options {
  const o: Options = { model: undefined, agents: [1, 8, 32], trunk: 256, generate: 32, threads: 2, one: undefined };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value = ""] = [argv[i], argv[i + 1]];
    const n = Number(value);
    if (flag === "--model") o.model = value;
    else if (flag === "--agents") o.agents = value.split(",").map(Number);
    else if (flag === "--one" && Number.isInteger(n)) o.one = n;
    else if (["--trunk", "--generate", "--threads"].includes(flag) && Number.isInteger(n) && n > 0)
      o[flag.slice(2) as "trunk" | "generate" | "threads"] = n;
    else throw new BenchUsageError(`memory bench: unknown flag or bad value: ${flag} ${value}`);
  }
  if (o.agents.some((n) => !Number.isInteger(n) || n < 1))
    throw new BenchUsageError("memory bench: --agents takes 1,8,32");
  return o;
}

/** Linux's peak resident set of this process (VmHWM), in MiB. */
function peakResidentMiB(): number {
  const line = readFileSync("/proc/self/status", "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmHWM:"));
  if (line === undefined) throw new Error("memory bench: /proc/self/status has no VmHWM (Linux only)");
  return Number(line.split(/\s+/)[1]) / 1024;
}

/** One N in this process: load, decode the trunk, fork N agents, generate T tokens each; print the sample. */
async function measureOne(o: Options, modelPath: string, agents: number): Promise<void> {
  const baseMiB = process.memoryUsage().rss / MiB;
  const model = await benchRuntime.loadModel({ modelPath, threads: o.threads });
  const tokenizer = { tokenize: (t: string) => model.model.tokenize(t), bos: model.model.tokens.bos };
  const trunk = trunkTokens(tokenizer, o.trunk);
  const swarm = await createSwarmContext(model, {
    maxAgents: agents,
    kvCells: o.trunk + agents * (o.generate + 8) + 256,
    threads: o.threads,
  });
  await swarm.appendToTrunk(trunk.slice(1) as Token[]);
  const forked = [];
  for (let i = 0; i < agents; i++) forked.push(await swarm.fork(`agent-${i + 1}`, { expectedTail: o.generate + 4 }));
  await Promise.all(
    forked.map((agent, i) =>
      agent.generate({ maxTokens: o.generate, forcedTokens: forcedTokens(tokenizer, i, o.generate) as Token[] }),
    ),
  );
  const stats = swarm.stats();
  const sample: Sample = {
    agents,
    baseMiB,
    peakMiB: peakResidentMiB(),
    weightsMiB: statSync(modelPath).size / MiB,
    kvMiB: (swarm.poolCells * model.facts.kvBytesPerCell) / MiB,
    poolCells: swarm.poolCells,
  };
  if (stats.usedCells > swarm.poolCells) throw new Error("memory bench: the ledger holds more cells than the pool");
  console.log(JSON.stringify(sample));
  await swarm.dispose();
  await model.dispose();
}

function table(samples: readonly Sample[]): string {
  const rest = (s: Sample) => s.peakMiB - s.baseMiB - s.weightsMiB - s.kvMiB;
  const rows = samples.map(
    (s) =>
      `| ${s.agents} | ${s.peakMiB.toFixed(0)} | ${s.baseMiB.toFixed(0)} | ${s.weightsMiB.toFixed(0)} | ` +
      `${s.kvMiB.toFixed(1)} (${s.poolCells} cells) | ${rest(s).toFixed(0)} |`,
  );
  const [low, high] = [samples[0], samples[samples.length - 1]];
  const perAgent = high.agents > low.agents ? (rest(high) - rest(low)) / (high.agents - low.agents) : 0;
  return [
    "| N | peak resident MiB | Node before the model | weights (file) | KV pool MiB | the rest MiB |",
    "|---:|---:|---:|---:|---:|---:|",
    ...rows,
    "",
    `the rest per agent: ${perAgent.toFixed(2)} MiB (slope from N = ${low.agents} to N = ${high.agents})`,
  ].join("\n");
}

async function main(): Promise<void> {
  const o = parse(process.argv.slice(2));
  const modelPath = o.model ?? (await cachedWrittenModel("qwen0.5b-shape-q8", realisticBenchSpec)).path;
  if (o.one !== undefined) return measureOne(o, modelPath, o.one);
  const samples: Sample[] = [];
  for (const agents of o.agents) {
    const args = [__filename, "--model", modelPath, "--one", String(agents), "--trunk", String(o.trunk)];
    args.push("--generate", String(o.generate), "--threads", String(o.threads));
    const out = execFileSync(process.execPath, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    const last = out.trim().split("\n").pop() ?? "";
    samples.push(JSON.parse(last) as Sample);
    console.log(`N = ${agents}: peak ${samples[samples.length - 1].peakMiB.toFixed(0)} MiB`);
  }
  console.log(`\nmodel ${path.basename(modelPath)}, P = ${o.trunk}, T = ${o.generate}\n`);
  console.log(table(samples));
}

runBenchMain(main);
