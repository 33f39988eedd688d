// What `npm run bench:server` runs (issue 26): two swarms of N researchers on one repository, each agent's work the
// same forced calls (F findings, each after W words of thinking), so the two arms differ only in where the swarms
// run: both on one `swarmboard serve`, or each in a worker of its own. Options, the repository and the start
// requests live here; bench/serverVsWorkers.ts runs the arms.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { StartSwarmParams } from "../src/protocol/swarmRpc";
import type { ScriptedCall } from "../src/protocol/turnScript";
import { defaultPolicy } from "../src/worker/swarm/defaultPolicy";
import { BenchUsageError } from "./benchOptions";

export interface ServerBenchOptions {
  readonly model: string;
  /** researchers per swarm (the synthesist comes on top) */
  readonly agents: number;
  /** findings each researcher posts before it finishes */
  readonly findings: number;
  /** words of thinking before each finding (the tokens a model would write) */
  readonly think: number;
  readonly threads: number;
  readonly kvCells: number;
  /** "different": the second swarm has a goal of its own (its trunk shares the charter and tools, not the goal) */
  readonly goals: "same" | "different";
  readonly jsonPath: string | undefined;
}

export const serverBenchUsage = `usage: node dist/bench/serverVsWorkers.js [--model PATH|real-size] [--agents 8] [--findings 3]
  [--think 20] [--threads 2] [--kv-cells 32768] [--goals different|same] [--json FILE]`;

/** The folder that holds package.json and dist/ (the bench runs from dist/bench or, compiled by tsc, out/bench). */
export function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, "CONTRIBUTING.md"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the project root above ${__dirname}`);
    dir = parent;
  }
  return dir;
}

/** The version dist/ was stamped with: the servers' sockets and hello carry it. */
export function distVersion(root: string): string {
  return (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
}

/** `--model real-size`: Qwen2.5-0.5B's shape with its real tokenizer and chat template (benchModels.ts). */
export const realSizeModel = "real-size";

const numberFlags = { "--agents": "agents", "--findings": "findings", "--think": "think", "--threads": "threads" };

export function parseServerBenchOptions(argv: readonly string[], root: string): ServerBenchOptions {
  const options = {
    model: path.join(root, "..", "shared", "models", "tiny-random-qwen2-chatml.gguf"),
    agents: 8,
    findings: 3,
    think: 20,
    threads: 2,
    kvCells: 32_768,
    goals: "different" as ServerBenchOptions["goals"],
    jsonPath: undefined as string | undefined,
  };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i]!, argv[i + 1]];
    const bad = () =>
      new BenchUsageError(`server bench: unknown flag or bad value: ${flag} ${value ?? ""}\n${serverBenchUsage}`);
    if (value === undefined) throw bad();
    if (flag === "--model") options.model = value;
    else if (flag === "--json") options.jsonPath = value;
    else if (flag === "--goals" && (value === "same" || value === "different")) options.goals = value;
    else if (flag === "--kv-cells" && Number.isInteger(Number(value)) && Number(value) >= 1024)
      options.kvCells = Number(value);
    else if (flag in numberFlags && Number.isInteger(Number(value)) && Number(value) >= 1)
      options[numberFlags[flag as keyof typeof numberFlags] as "agents"] = Number(value);
    else throw bad();
  }
  if (options.agents > 30) throw new BenchUsageError(`server bench: --agents is at most 30\n${serverBenchUsage}`);
  if (options.model !== realSizeModel && !existsSync(options.model))
    throw new BenchUsageError(`server bench: no model at ${options.model} (--model PATH)`);
  return options;
}

/** Thinking of about `words` words before finding `n`. */
function thinking(words: number, n: number): string {
  const line = `Reading the module for finding ${n}: the mean divides by the length, so an empty list gives NaN. `;
  return line.repeat(Math.max(1, Math.ceil(words / line.split(" ").length))).trim();
}

/** Every researcher's calls: F findings, each after its thinking, then finish; the synthesist only finishes. */
function script(o: ServerBenchOptions): StartSwarmParams["script"] {
  const finish: ScriptedCall = { tool: "finish", args: { summary: "read it" } };
  const agents: Record<string, ScriptedCall[]> = { synthesist: [finish] };
  for (let a = 1; a <= o.agents; a++) {
    const posts = Array.from({ length: o.findings }, (_, n) => ({
      tool: "post_finding",
      args: { kind: "OBSERVED", text: `agent ${a} saw ${n + 1}` },
      think: thinking(o.think, n + 1),
    }));
    agents[`agent-${a}`] = [...posts, finish];
  }
  return { agents };
}

const goals = ["Read the stats module and say what each function does", "Read the README and list what it promises"];

/** Swarm `which` (0: the first, 1: the second) on the repository, its state beside it. */
export function startRequest(o: ServerBenchOptions, workspace: string, stateDir: string, which: 0 | 1) {
  return {
    goal: goals[o.goals === "same" ? 0 : which]!,
    recipe: "research",
    agents: o.agents,
    modelPath: o.model,
    workspace,
    stateDir,
    threads: o.threads,
    kvCells: o.kvCells,
    // The recipe's 20 minutes would fan in early on a busy machine, and the arms would not do the same work.
    budgetMs: 3_600_000,
    policy: defaultPolicy(),
    script: script(o),
  } satisfies StartSwarmParams;
}
