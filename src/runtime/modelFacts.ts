// The model's KV shape, read from its GGUF metadata, and what one KV cell costs in bytes.
// A cell holds one token's keys and values for every layer:
//   layers x kvHeads x (keyHeadDim x size(K type) + valueHeadDim x size(V type)).
import type { ModelFacts } from "../protocol/runtime";

/** Bytes per element of the ggml types llama.cpp accepts for its KV cache (block size / bytes per block). */
const kvTypeBytes: Readonly<Record<string, number>> = {
  F32: 4,
  F16: 2,
  BF16: 2,
  Q8_0: 34 / 32,
  Q4_0: 18 / 32,
  Q4_1: 20 / 32,
  Q5_0: 22 / 32,
  Q5_1: 24 / 32,
  IQ4_NL: 18 / 32,
};

/** Elements per block of a quantised type: a head dimension must be a multiple of it for llama.cpp to take it. */
export function kvTypeBlockSize(typeName: string): number {
  return ["F32", "F16", "BF16"].includes(typeName) ? 1 : 32;
}

export function bytesPerKvElement(typeName: string): number {
  const bytes = kvTypeBytes[typeName];
  if (bytes === undefined) {
    throw new Error(`unknown KV cache type ${typeName}: expected one of ${Object.keys(kvTypeBytes).join(", ")}`);
  }
  return bytes;
}

export interface ModelFactsInput {
  path: string;
  /** The GGUF metadata as node-llama-cpp parsed it (`model.fileInfo.metadata`). */
  metadata: unknown;
  keyTypeName: string;
  valueTypeName: string;
  trainContextSize: number;
}

function field(record: unknown, ...keys: string[]): unknown {
  let value = record;
  for (const key of keys) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A per-layer value may be stored once or once per layer; the cache is sized by its sum over layers. */
function perLayerSum(value: unknown, layers: number, name: string): number {
  if (typeof value === "number") return value * layers;
  if (Array.isArray(value) && value.every((item) => typeof item === "number")) {
    return (value as number[]).reduce((sum, item) => sum + item, 0);
  }
  throw new Error(`the model's GGUF metadata has no usable ${name}`);
}

function positiveInteger(value: unknown, name: string): number {
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  throw new Error(`the model's GGUF metadata has no usable ${name} (found ${JSON.stringify(value)})`);
}

function vocabularySizeOf(metadata: unknown): number {
  const tokens = field(metadata, "tokenizer", "ggml", "tokens");
  return Array.isArray(tokens) ? tokens.length : 0;
}

export function readModelFacts(input: ModelFactsInput): ModelFacts {
  const architecture = field(input.metadata, "general", "architecture");
  if (typeof architecture !== "string") throw new Error("the model's GGUF metadata names no general.architecture");
  const arch = field(input.metadata, architecture);
  const layers = positiveInteger(field(arch, "block_count"), `${architecture}.block_count`);
  const headsValue = field(arch, "attention", "head_count");
  const heads = positiveInteger(Array.isArray(headsValue) ? Math.max(...headsValue) : headsValue, "head_count");
  const kvHeadsValue = field(arch, "attention", "head_count_kv") ?? headsValue;
  const kvHeadsTotal = perLayerSum(kvHeadsValue, layers, `${architecture}.attention.head_count_kv`);
  const width = positiveInteger(field(arch, "embedding_length"), `${architecture}.embedding_length`);
  const keyHeadDim = positiveInteger(field(arch, "attention", "key_length") ?? width / heads, "key_length");
  const valueHeadDim = positiveInteger(field(arch, "attention", "value_length") ?? width / heads, "value_length");
  const bytesPerCell =
    kvHeadsTotal *
    (keyHeadDim * bytesPerKvElement(input.keyTypeName) + valueHeadDim * bytesPerKvElement(input.valueTypeName));
  return {
    path: input.path,
    architecture,
    layers,
    heads,
    kvHeads: Math.round(kvHeadsTotal / layers),
    keyHeadDim,
    valueHeadDim,
    kvType:
      input.keyTypeName === input.valueTypeName ? input.keyTypeName : `${input.keyTypeName}/${input.valueTypeName}`,
    kvBytesPerCell: bytesPerCell,
    // A vocabulary-only load (a remote engine's) reads no hyperparameters: its context length is in the metadata.
    trainContextSize:
      input.trainContextSize > 0
        ? input.trainContextSize
        : positiveInteger(field(arch, "context_length"), `${architecture}.context_length`),
    vocabularySize: vocabularySizeOf(input.metadata),
  };
}
