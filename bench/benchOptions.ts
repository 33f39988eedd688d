// Command-line flags of `npm run bench:runtime`. Unknown flags are refused (a typo must not silently run the
// hour-long default), and every number is checked.
import type { BenchMode } from "./benchFigures";

const allModes: readonly BenchMode[] = ["shared-cells", "copy-mode", "usual-bill", "remote", "remote-split"];
const gpuValues = ["auto", "cuda", "vulkan", "metal", "false"] as const;

export interface BenchOptions {
  /** a short run: fewer agent counts, short trunks, few tokens, stories260K only unless --model is given */
  readonly quick: boolean;
  /** where to write the figures as JSON, if anywhere */
  readonly jsonPath: string | undefined;
  /** models to run on; empty = the defaults (a written 0.5B-shape model, then stories260K) */
  readonly modelPaths: readonly string[];
  /** decode threads (set explicitly: the default collapses on a busy machine) */
  readonly threads: number;
  /** agent counts N */
  readonly agents: readonly number[];
  /** trunk lengths P in tokens */
  readonly trunks: readonly number[];
  /** private tail lengths L for the sweep that shows where shared cells lose (empty: no sweep) */
  readonly tails: readonly number[];
  /** agents in that sweep */
  readonly tailAgents: number;
  /** tokens each agent generates, T */
  readonly generate: number;
  /**
   * The usual bill (the slow baseline) is skipped above this many prefill tokens (N x P). The default, 4096, keeps
   * all of P = 256 and cuts P = 2048 at N >= 4: those rows alone took ~4 of a complete run's 16 minutes on 2
   * busy cores (bench/RESULTS.md has them from such a run).
   */
  readonly usualBillMaxPrefill: number;
  /**
   * which of shared cells, copy mode, the usual bill and the remote arms (llama-server on loopback, built by
   * scripts/buildLlamaServer.mjs, with one KV pool for its slots or one stream per slot) to run (default all five)
   */
  readonly modes: readonly BenchMode[];
  /** where the model runs (default false: the CPU); a named backend that cannot load stops the run */
  readonly gpu: (typeof gpuValues)[number];
}

export const benchUsage = `usage: node dist/bench/runtimeBench.js [--quick] [--json FILE] [--model PATH]... [--threads N]
  [--agents 1,2,4,8,16] [--trunks 256,2048] [--generate 32] [--usual-bill-max-prefill 4096]
  [--tails 0,512|none] [--tail-agents 8] [--modes shared-cells,copy-mode,usual-bill,remote,remote-split]
  [--gpu false|auto|cuda|vulkan|metal]`;

const fullDefaults = {
  agents: [1, 2, 4, 8, 16],
  trunks: [256, 2048],
  generate: 32,
  usualBillMaxPrefill: 4096,
  tails: [0, 512],
  tailAgents: 8,
};
const quickDefaults = {
  agents: [1, 4],
  trunks: [64],
  generate: 8,
  usualBillMaxPrefill: 4096,
  tails: [0, 32],
  tailAgents: 4,
};

export class BenchUsageError extends Error {
  override readonly name = "BenchUsageError";
}

function positiveInt(flag: string, text: string | undefined): number {
  const value = Number(text);
  if (text === undefined || !Number.isInteger(value) || value < 1) {
    throw new BenchUsageError(`${flag} needs a positive integer, got ${text ?? "nothing"}\n${benchUsage}`);
  }
  return value;
}

function intList(flag: string, text: string | undefined, zeroAllowed = false): number[] {
  if (text === undefined) throw new BenchUsageError(`${flag} needs a comma-separated list\n${benchUsage}`);
  return text.split(",").map((part) => (zeroAllowed && part.trim() === "0" ? 0 : positiveInt(flag, part.trim())));
}

function valueOf(flag: string, text: string | undefined): string {
  if (text === undefined || text.startsWith("--")) throw new BenchUsageError(`${flag} needs a value\n${benchUsage}`);
  return text;
}

/** Parses `argv` (without node and the script). */
export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const quick = argv.includes("--quick");
  const defaults = quick ? quickDefaults : fullDefaults;
  let { agents, trunks, generate, usualBillMaxPrefill, tails, tailAgents } = defaults;
  let jsonPath: string | undefined;
  let threads = 2;
  let modes = allModes;
  let gpu: BenchOptions["gpu"] = "false";
  const modelPaths: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const next = (): string | undefined => argv[++i];
    switch (flag) {
      case "--quick":
        break;
      case "--json":
        jsonPath = valueOf(flag, next());
        break;
      case "--model":
        modelPaths.push(valueOf(flag, next()));
        break;
      case "--threads":
        threads = positiveInt(flag, next());
        break;
      case "--agents":
        agents = intList(flag, next());
        break;
      case "--trunks":
        trunks = intList(flag, next());
        break;
      case "--generate":
        generate = positiveInt(flag, next());
        break;
      case "--tails": {
        const text = next();
        tails = text === "none" ? [] : intList(flag, text, true);
        break;
      }
      case "--tail-agents":
        tailAgents = positiveInt(flag, next());
        break;
      case "--modes":
        modes = valueOf(flag, next())
          .split(",")
          .map((mode) => {
            if (!(allModes as readonly string[]).includes(mode))
              throw new BenchUsageError(`--modes: ${mode} is not one of ${allModes.join(", ")}\n${benchUsage}`);
            return mode as BenchMode;
          });
        break;
      case "--gpu": {
        const value = valueOf(flag, next());
        if (!(gpuValues as readonly string[]).includes(value))
          throw new BenchUsageError(`--gpu: ${value} is not one of ${gpuValues.join(", ")}\n${benchUsage}`);
        gpu = value as BenchOptions["gpu"];
        break;
      }
      case "--usual-bill-max-prefill":
        usualBillMaxPrefill = positiveInt(flag, next());
        break;
      default:
        throw new BenchUsageError(`unknown flag ${flag}\n${benchUsage}`);
    }
  }
  if (generate < 2)
    throw new BenchUsageError(`--generate must be at least 2: the step time is measured after the first token`);
  return {
    quick,
    jsonPath,
    modelPaths,
    threads,
    agents,
    trunks,
    generate,
    usualBillMaxPrefill,
    tails,
    tailAgents,
    modes,
    gpu,
  };
}
