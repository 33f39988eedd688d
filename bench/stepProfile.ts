// `node dist/bench/stepProfile.js`: where one decode step's time goes in the shared-cells runtime. Decodes a
// trunk of P tokens once, forks N agents, lets them generate T tokens together, and splits each steady step
// into llama_decode, sampling and JavaScript (stepTimers.ts). Flags: --agents 1,8,16 --trunk 1024 --generate 32
// --threads 2 [--model PATH] (default: the 0.5B-shape model the runtime bench writes). Each N runs twice, side by
// side: sampling on the logits in place (the patched addon's default) and the stock full-vocabulary candidate
// array (SWARMBOARD_STOCK_SAMPLING=1, which the patched addon reads whenever it makes a sampler).
import os from "node:os";
import { RuntimeOwner } from "../src/runtime/runtimeOwner";
import { createSwarmContext } from "../src/runtime/local/swarmContext";
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import { cachedWrittenModel, realisticBenchSpec } from "./benchModels";
import { runBenchMain } from "./benchMain";
import { BenchUsageError } from "./benchOptions";
import { forcedTokens, trunkTokens } from "./benchTokens";
import { StepTimers, type StepSplit } from "./stepTimers";

interface ProfileOptions {
  agents: number[];
  trunk: number;
  generate: number;
  threads: number;
  model: string | undefined;
}

function parse(argv: readonly string[]): ProfileOptions {
  const options: ProfileOptions = { agents: [1, 8, 16], trunk: 1024, generate: 32, threads: 2, model: undefined };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new BenchUsageError(`${flag} needs a value`);
    if (flag === "--agents") options.agents = value.split(",").map(Number);
    else if (flag === "--trunk") options.trunk = Number(value);
    else if (flag === "--generate") options.generate = Number(value);
    else if (flag === "--threads") options.threads = Number(value);
    else if (flag === "--model") options.model = value;
    else throw new BenchUsageError(`unknown flag ${flag}`);
  }
  const counts = [...options.agents, options.trunk, options.generate, options.threads];
  if (!counts.every((n) => Number.isInteger(n) && n > 0)) throw new BenchUsageError("every number must be > 0");
  return options;
}

type Loaded = Awaited<ReturnType<RuntimeOwner["loadModel"]>>;

async function profileOne(model: Loaded, options: ProfileOptions, agents: number): Promise<StepSplit> {
  const timers = new StepTimers();
  const createContext = model.model.createContext.bind(model.model);
  // The swarm keeps its llama.cpp context to itself: catch it as it is made, to time its addon calls.
  model.model.createContext = async (...args: Parameters<typeof createContext>) => {
    const context = await createContext(...args);
    timers.attach(context);
    return context;
  };
  const tokenizer = { tokenize: (text: string) => model.tokenize(text), bos: model.model.tokens.bos };
  const trunk = trunkTokens(tokenizer, options.trunk);
  const { generate } = options;
  const swarm = await createSwarmContext(model, {
    maxAgents: agents,
    kvCells: options.trunk + generate + 16 + agents * (generate + 2),
    threads: options.threads,
    unified: true,
    batchSize: 512,
  });
  model.model.createContext = createContext;
  try {
    await swarm.appendToTrunk((trunk[0] === tokenizer.bos ? trunk.slice(1) : trunk) as Token[]);
    const forks = [];
    for (let i = 0; i < agents; i++) forks.push(await swarm.fork(`agent-${i + 1}`, { expectedTail: generate + 2 }));
    const forced = forks.map((_, i) => forcedTokens(tokenizer, i, generate) as Token[]);
    // First tokens apart, so every measured step has all N agents in it.
    await Promise.all(forks.map((agent, i) => agent.generate({ maxTokens: 1, forcedTokens: forced[i].slice(0, 1) })));
    timers.start();
    await Promise.all(
      forks.map((agent, i) => agent.generate({ maxTokens: generate - 1, forcedTokens: forced[i].slice(1) })),
    );
    return timers.stop();
  } finally {
    await swarm.dispose();
  }
}

type Arm = "in-place" | "stock";

async function profileArm(model: Loaded, options: ProfileOptions, agents: number, arm: Arm): Promise<StepSplit> {
  if (arm === "stock") process.env.SWARMBOARD_STOCK_SAMPLING = "1";
  else delete process.env.SWARMBOARD_STOCK_SAMPLING;
  try {
    return await profileOne(model, options, agents);
  } finally {
    delete process.env.SWARMBOARD_STOCK_SAMPLING;
  }
}

function row(agents: number, arm: Arm, split: StepSplit): string {
  const f = (n: number): string => n.toFixed(1);
  return (
    `| ${agents} | ${arm} | ${split.steps} | ${f(split.stepMs)} | ${f(split.decodeMs)} | ${f(split.sampleSpanMs)} | ` +
    `${f(split.sampleCallMs)} (${split.sampleCalls.toFixed(0)} calls) | ${f(split.jsMs)} | ${f(split.decodeCpuMs)} | ` +
    `${f(split.sampleCpuMs)} |`
  );
}

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2));
  const owner = new RuntimeOwner();
  const modelPath = options.model ?? (await cachedWrittenModel("qwen0.5b-shape-q8", realisticBenchSpec)).path;
  const model = await owner.loadModel({ modelPath, threads: options.threads });
  try {
    console.log(`model ${modelPath}, ${model.build}, P = ${options.trunk}, T = ${options.generate}`);
    console.log(`load average at start ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores\n`);
    // A throwaway round: the first context of a process pays for graph and buffer setup.
    await profileOne(model, { ...options, trunk: 32, generate: 4 }, 2);
    const lines = [
      "| N | sampling | steps | step ms | llama_decode ms | sampling span ms | sampling calls ms | JS ms | " +
        "decode CPU ms | sampling CPU ms |",
    ];
    lines.push("|---|---|---|---|---|---|---|---|---|---|");
    for (const agents of options.agents) {
      for (const arm of ["stock", "in-place"] as const) {
        lines.push(row(agents, arm, await profileArm(model, options, agents, arm)));
        console.log(lines.at(-1));
      }
    }
    console.log(`\n${lines.join("\n")}\n\nload average at end ${os.loadavg()[0].toFixed(2)}`);
  } finally {
    await owner.dispose();
  }
}

runBenchMain(main);
