// `npm run bench:router`: the amortised time of one routing decision when K triggers are queued while the router
// works (K = 1, 5, 10, 40), side by side in one process on the same model. The router's context is a forked agent
// on a trunk of P tokens; each batch is one append of the K trigger lines (the real `triggerLine` format, as one
// wait_for_triggers result carries them) and then K decisions, each a call of D forced tokens followed by its
// short result, as the standing swarm does (worker/standing/standingSwarm.ts). The same M triggers go through every arm,
// so the arms differ only in how the trigger lines reach the model: one prefill for K lines or K prefills.
// Usage: node dist/bench/routerBatching.js [--model PATH] [--trunk 1024] [--triggers 40] [--threads 2]
// With --end-to-end: latency per request over a recorded stream, router + workers against one agent (routerEndToEnd.ts).
import os from "node:os";
import path from "node:path";
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import { triggerLine } from "../src/core/standingBriefs";
import type { Trigger } from "../src/protocol/triggers";
import type { SwarmModel } from "../src/runtime/loadModel";
import { RuntimeOwner } from "../src/runtime/runtimeOwner";
import { createSwarmContext } from "../src/runtime/local/swarmContext";
import { runBenchMain } from "./benchMain";
import { endToEndMain } from "./routerEndToEnd";
import { cachedWrittenModel, realisticBenchSpec } from "./benchModels";
import { BenchUsageError } from "./benchOptions";
import { trunkTokens } from "./benchTokens";

/** The bench's own runtime owner: its Llama, models and kept context. */
const benchRuntime = new RuntimeOwner();

const batchSizes = [1, 5, 10, 40] as const;

interface RouterBenchOptions {
  model: string | undefined;
  trunk: number;
  triggers: number;
  threads: number;
}

function parse(argv: readonly string[]): RouterBenchOptions {
  const options: RouterBenchOptions = { model: undefined, trunk: 1024, triggers: 40, threads: 2 };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === "--model" && value !== undefined) options.model = value;
    else if (["--trunk", "--triggers", "--threads"].includes(flag) && Number.isInteger(Number(value))) {
      options[flag.slice(2) as "trunk" | "triggers" | "threads"] = Number(value);
    } else throw new BenchUsageError(`router bench: unknown flag or bad value: ${flag} ${value ?? ""}`);
  }
  if (options.triggers % 40 !== 0) throw new BenchUsageError("router bench: --triggers must be a multiple of 40");
  return options;
}

/** Realistic triggers: compiler errors and failing tests in a mid-sized repository. */
function triggers(count: number): Trigger[] {
  return Array.from({ length: count }, (_, i) => {
    const id = `t-${String(i + 1).padStart(4, "0")}`;
    const common = { id, fingerprint: `fp-${i}`, time: 1_800_000_000_000 + i * 1000 };
    return i % 2 === 0
      ? {
          ...common,
          source: "diagnostic",
          path: `src/module${i % 17}/parser.ts`,
          line: 40 + i,
          severity: "error",
          text: `TS2345: Argument of type 'string | undefined' is not assignable to parameter of type 'string'.`,
        }
      : {
          ...common,
          source: "test-failure",
          test: `parser handles nested block ${i}`,
          text: `AssertionError: expected 3 nodes, got 2 (test/parser.test.ts:${100 + i})`,
        };
  }) as Trigger[];
}

/** The router's decision on one trigger, as its call would spell it. */
function decisionText(t: Trigger): string {
  return `{"name": "assign_task", "arguments": {"trigger": "${t.id}"}}`;
}

async function runArm(model: SwarmModel, options: RouterBenchOptions, k: number, all: Trigger[]) {
  // The pool the router needs and little more.
  const needed = all.reduce(
    (sum, t) =>
      sum + model.tokenize(`${triggerLine(t)}\n${decisionText(t)}\nassigned ${t.id} to a new worker\n`).length,
    0,
  );
  const tail = needed + 32 * all.length + 256;
  const context = await createSwarmContext(model, {
    maxAgents: 1,
    kvCells: options.trunk + tail + 256,
    threads: options.threads,
  });
  try {
    const tokenizer = { tokenize: (t: string) => model.model.tokenize(t), bos: model.model.tokens.bos };
    await context.appendToTrunk(trunkTokens(tokenizer, options.trunk) as Token[]);
    const router = await context.fork("router", { expectedTail: tail });
    const started = performance.now();
    for (let at = 0; at < all.length; at += k) {
      const batch = all.slice(at, at + k);
      // One wait_for_triggers result: every queued trigger's line at once.
      await router.append(`\nTriggers (${batch.length}):\n${batch.map(triggerLine).join("\n")}\n`);
      for (const t of batch) {
        const forced = model.tokenize(decisionText(t));
        await router.generate({ maxTokens: forced.length, forcedTokens: forced });
        await router.append(`\nassigned ${t.id} to a new worker\n`);
      }
    }
    const ms = performance.now() - started;
    return { k, msPerDecision: ms / all.length, tokens: router.tokens.length - context.trunkTokens.length };
  } finally {
    await context.dispose();
  }
}

async function main(): Promise<void> {
  if (process.argv.includes("--end-to-end")) return endToEndMain(process.argv.slice(2));
  const options = parse(process.argv.slice(2));
  const modelPath = options.model ?? (await cachedWrittenModel("qwen0.5b-shape-q8", realisticBenchSpec)).path;
  const model = await benchRuntime.loadModel({ modelPath, threads: options.threads });
  try {
    const all = triggers(options.triggers);
    // A throwaway round (buffers, graphs): short, since on the 0.5B shape a decision takes seconds.
    await runArm(model, { ...options, triggers: 5 }, 5, all.slice(0, 5));
    console.error("router bench: warm-up round done");
    const rows = [];
    for (const k of batchSizes) {
      rows.push(await runArm(model, options, k, all));
      // A slow model takes minutes per arm: say where the run is.
      console.error(`router bench: K = ${k} done, ${rows.at(-1)!.msPerDecision.toFixed(1)} ms per decision`);
    }
    const one = rows[0]!.msPerDecision;
    console.log(
      `model ${path.basename(modelPath)}, ${model.build}, ${options.threads} threads, load ${os.loadavg()[0]}`,
    );
    console.log(`P = ${options.trunk} trunk tokens, ${options.triggers} triggers, each decided by a forced call\n`);
    console.log("| triggers queued (K) | batches | router tokens | ms per decision | vs one at a time |");
    console.log("|---:|---:|---:|---:|---:|");
    for (const r of rows) {
      const ratio = one / r.msPerDecision;
      console.log(
        `| ${r.k} | ${options.triggers / r.k} | ${r.tokens} | ${r.msPerDecision.toFixed(1)} | ${ratio.toFixed(2)}x |`,
      );
    }
  } finally {
    await model.dispose();
  }
}

runBenchMain(main);
