// A relaunch on the same repository and recipe: the new swarm's trunk is the last one's but for its tail (the goal
// and the roster change; the charter, tools and repository summary do not). Measured side by side in one process,
// for N agents each taking its first token:
//   cold      a new context decodes the whole trunk (what every launch paid before the trunk was kept);
//   kept      the worker's kept context decodes only the part after the shared prefix (worker/swarm/keptTrunk.ts);
//   restored  after a restart, a new context restores the saved trunk's cells from a state file, then decodes the
//             changed tail (runtime/local/trunkStateFile.ts).
// Usage: node dist/bench/relaunchTrunk.js [--model PATH] [--trunk 2048] [--changed 128] [--agents 8] [--threads 2]
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import { RuntimeOwner } from "../src/runtime/runtimeOwner";
import { createSwarmContext, type SwarmContext } from "../src/runtime/local/swarmContext";
import { cachedWrittenModel, realisticBenchSpec } from "./benchModels";
import { forcedTokens, trunkTokens } from "./benchTokens";
import { runBenchMain } from "./benchMain";
import { BenchUsageError } from "./benchOptions";

/** The bench's own runtime owner: its Llama, models and kept context. */
const benchRuntime = new RuntimeOwner();

interface RelaunchOptions {
  model: string | undefined;
  trunk: number;
  changed: number;
  agents: number;
  threads: number;
}

function parse(argv: readonly string[]): RelaunchOptions {
  const options: RelaunchOptions = { model: undefined, trunk: 2048, changed: 128, agents: 8, threads: 2 };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === "--model" && value !== undefined) options.model = value;
    else if (["--trunk", "--changed", "--agents", "--threads"].includes(flag) && Number.isInteger(Number(value))) {
      options[flag.slice(2) as "trunk" | "changed" | "agents" | "threads"] = Number(value);
    } else {
      throw new BenchUsageError(`relaunch bench: unknown flag or bad value: ${flag} ${value ?? ""}`);
    }
  }
  if (options.changed >= options.trunk)
    throw new BenchUsageError("relaunch bench: --changed must be less than --trunk");
  return options;
}

/** Forks N agents and waits until each has its first token: what "all agents started" means at a launch. */
async function startAgents(swarm: SwarmContext, agents: number, firstTokens: readonly number[]): Promise<void> {
  const forked = [];
  for (let i = 0; i < agents; i++) forked.push(await swarm.fork(`agent-${i + 1}`, { expectedTail: 4 }));
  await Promise.all(
    forked.map((agent, i) => agent.generate({ maxTokens: 1, forcedTokens: [firstTokens[i]] as Token[] })),
  );
  for (const agent of forked) await agent.release();
}

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2));
  const modelPath = options.model ?? (await cachedWrittenModel("qwen0.5b-shape-q8", realisticBenchSpec)).path;
  const model = await benchRuntime.loadModel({ modelPath, threads: options.threads });
  const stateDir = mkdtempSync(path.join(os.tmpdir(), "swarmboard-relaunch-"));
  try {
    const tokenizer = { tokenize: (t: string) => model.model.tokenize(t), bos: model.model.tokens.bos };
    const first = trunkTokens(tokenizer, options.trunk);
    // The second launch keeps all but the last `changed` tokens and replaces those with other text.
    const tail = forcedTokens(tokenizer, 3, options.changed);
    const second = [...first.slice(0, options.trunk - options.changed), ...tail];
    const firstTokens = Array.from({ length: options.agents }, (_, i) => forcedTokens(tokenizer, i, 1)[0]);
    const contextOptions = { maxAgents: options.agents, kvCells: options.trunk * 2 + 1024, threads: options.threads };
    const stateFile = path.join(stateDir, "trunk.state");

    let t = performance.now();
    const kept = await createSwarmContext(model, contextOptions);
    await kept.appendToTrunk(first as Token[]);
    await startAgents(kept, options.agents, firstTokens);
    const coldMs = performance.now() - t;
    await kept.saveTrunk(stateFile);

    t = performance.now();
    const reuse = await kept.replaceTrunk(second as Token[]);
    await startAgents(kept, options.agents, firstTokens);
    const keptMs = performance.now() - t;
    await kept.dispose();

    t = performance.now();
    const fresh = await createSwarmContext(model, contextOptions);
    const restore = await fresh.restoreTrunk(stateFile, second as Token[]);
    await startAgents(fresh, options.agents, firstTokens);
    const restoredMs = performance.now() - t;
    await fresh.dispose();

    console.log(
      `model ${path.basename(modelPath)}, ${model.build}, ${options.threads} threads, load ${os.loadavg()[0]}`,
    );
    console.log(`P = ${options.trunk} trunk tokens, ${options.changed} changed at the end, N = ${options.agents}\n`);
    console.log("| launch | trunk tokens decoded | time to all agents started | vs cold |");
    console.log("|---|---:|---:|---:|");
    console.log(`| cold | ${first.length} | ${(coldMs / 1000).toFixed(2)} s | 1.00x |`);
    const restoredTokens = restore.restored ? second.length - restore.restoredTokens : second.length;
    for (const [name, decoded, ms] of [
      ["kept (same worker)", reuse.decodedTokens, keptMs],
      ["restored (state file)", restoredTokens, restoredMs],
    ] as const) {
      console.log(`| ${name} | ${decoded} | ${(ms / 1000).toFixed(2)} s | ${(coldMs / ms).toFixed(1)}x sooner |`);
    }
    if (!restore.restored) console.log(`\nthe state file was not used: ${restore.note}`);
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
    await model.dispose();
  }
}

runBenchMain(main);
