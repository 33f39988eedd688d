// The models the benchmark runs on: a model of realistic shape written by the GGUF writer (random weights, so
// it needs no download) into a cache folder outside the repository, and the trained stories260K.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { qwen25HalfBShape, type LlamaGgufSpec } from "../test/fixtures/gguf/llamaShape";
import { writeLlamaGguf } from "../test/fixtures/gguf/writeLlamaGguf";
import { ensureShapedFamilyModel } from "../test/fixtures/gguf/familyModels";

export interface BenchModel {
  /** short name for tables */
  readonly label: string;
  readonly path: string;
  /** how it came to be: "written" (by the GGUF writer), "cached" (written by an earlier run) or "given" */
  readonly origin: "written" | "cached" | "given";
}

/**
 * Qwen2.5-0.5B's transformer with its real vocabulary size (151,936 byte-vocabulary fillers), so the output
 * layer costs what it costs in the real model; Q8_0 keeps it at ~530 MB. Weights are random.
 */
export const realisticBenchSpec: LlamaGgufSpec = {
  ...qwen25HalfBShape,
  tensorType: "Q8_0",
  seed: 20261129,
  vocabSize: 151936,
  name: "swarmboard-bench-qwen2.5-0.5b-shape-random-q8_0",
};

/**
 * The same transformer with Qwen2.5's real tokenizer and chat template (from the llama.cpp source node-llama-cpp
 * ships): a model of real size a swarm can call tools on (forced turns), for benches that run whole swarms.
 */
export function realSizeChatModel(): Promise<string> {
  return ensureShapedFamilyModel("qwen2.5", { ...qwen25HalfBShape, tensorType: "Q8_0", seed: 20261129 });
}

/** A tiny model of the same kind for --quick runs: writes in a blink. */
export const quickBenchSpec: LlamaGgufSpec = {
  layers: 4,
  width: 256,
  heads: 8,
  kvHeads: 2,
  ffn: 512,
  contextLength: 4096,
  tensorType: "Q8_0",
  seed: 7,
  name: "swarmboard-bench-small-random-q8_0",
};

export const stories260KPath = path.resolve(__dirname, "../../../shared/models/stories260K.gguf");

/** `$SWARMBOARD_BENCH_CACHE`, else `$XDG_CACHE_HOME/swarmboard/bench`, else `~/.cache/swarmboard/bench`. */
export function benchCacheDir(): string {
  const configured = process.env.SWARMBOARD_BENCH_CACHE;
  if (configured) return configured;
  const cacheHome = process.env.XDG_CACHE_HOME || path.join(homedir(), ".cache");
  return path.join(cacheHome, "swarmboard", "bench");
}

/**
 * Writes `spec` into the cache folder unless an earlier run already did. The file name carries a hash of the
 * spec, and the writer renames a finished file into place, so a file that exists is complete and current.
 */
export async function cachedWrittenModel(label: string, spec: LlamaGgufSpec): Promise<BenchModel> {
  const dir = benchCacheDir();
  mkdirSync(dir, { recursive: true });
  const hash = createHash("sha256").update(JSON.stringify(spec)).digest("hex").slice(0, 12);
  const file = path.join(dir, `${spec.name ?? "random-llama"}-${hash}.gguf`);
  if (existsSync(file) && statSync(file).size > 0) return { label, path: file, origin: "cached" };
  await writeLlamaGguf(file, spec);
  return { label, path: file, origin: "written" };
}

/** The models for this run: the given paths, or the defaults (realistic shape, then stories260K). */
export async function benchModels(modelPaths: readonly string[], quick: boolean): Promise<BenchModel[]> {
  if (modelPaths.length > 0) {
    return modelPaths.map((p) => {
      if (!existsSync(p)) throw new Error(`--model ${p}: no such file; pass the path of a GGUF model`);
      return { label: path.basename(p, ".gguf"), path: p, origin: "given" as const };
    });
  }
  if (!existsSync(stories260KPath)) {
    throw new Error(
      `stories260K is missing at ${stories260KPath}; pass --model PATH, or put the team's shared models back`,
    );
  }
  const stories: BenchModel = { label: "stories260K", path: stories260KPath, origin: "given" };
  if (quick) return [await cachedWrittenModel("small-random-q8", quickBenchSpec), stories];
  return [await cachedWrittenModel("qwen0.5b-shape-q8", realisticBenchSpec), stories];
}
