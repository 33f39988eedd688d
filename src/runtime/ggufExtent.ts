// A GGUF cut short (a download that stopped, a disk that filled) still has its whole header, so its metadata reads
// and only its weights are missing: judged by its template, it was refused as a model with "no chat template".
// Its header says how long it must be: the tensor data section's start plus, over every tensor, its offset and
// size. A shorter file is refused as truncated, with both sizes and what to do, before anything else is judged.
// A file cut inside its header reads without an error (node-llama-cpp reads past the end as zeros), so its
// sizes are nonsense: one whose header, as read, ends past the file's end is said to be cut inside its header.
import { stat } from "node:fs/promises";
import type { GgufFileInfo } from "node-llama-cpp" with { "resolution-mode": "import" };

/** ggml's block layout per type id: elements per block and bytes per block (ggml.c's type_traits). */
const ggmlBlocks: Readonly<Record<number, readonly [elements: number, bytes: number]>> = {
  0: [1, 4], // F32
  1: [1, 2], // F16
  2: [32, 18], // Q4_0
  3: [32, 20], // Q4_1
  6: [32, 22], // Q5_0
  7: [32, 24], // Q5_1
  8: [32, 34], // Q8_0
  9: [32, 36], // Q8_1
  10: [256, 84], // Q2_K
  11: [256, 110], // Q3_K
  12: [256, 144], // Q4_K
  13: [256, 176], // Q5_K
  14: [256, 210], // Q6_K
  15: [256, 292], // Q8_K
  16: [256, 66], // IQ2_XXS
  17: [256, 74], // IQ2_XS
  18: [256, 98], // IQ3_XXS
  19: [256, 50], // IQ1_S
  20: [32, 18], // IQ4_NL
  21: [256, 110], // IQ3_S
  22: [256, 82], // IQ2_S
  23: [256, 136], // IQ4_XS
  24: [1, 1], // I8
  25: [1, 2], // I16
  26: [1, 4], // I32
  27: [1, 8], // I64
  28: [1, 8], // F64
  29: [256, 56], // IQ1_M
  30: [1, 2], // BF16
};

/**
 * The bytes the file must hold by its header: the end of its last tensor's data. A tensor of a type this table
 * does not know counts from its start only (a lower bound). Undefined without tensor info.
 */
export function ggufExpectedBytes(info: GgufFileInfo): number | undefined {
  const tensors = info.tensorInfo;
  if (tensors === undefined) return undefined;
  let end = BigInt(info.infoEndOffset ?? 0);
  for (const t of tensors) {
    const block = ggmlBlocks[t.ggmlType];
    let size = 0n;
    if (block !== undefined) {
      const elements = t.dimensions.reduce<bigint>((n, d) => n * BigInt(d), 1n);
      size = (elements / BigInt(block[0])) * BigInt(block[1]);
    }
    const tensorEnd = BigInt(t.fileOffset) + size;
    if (tensorEnd > end) end = tensorEnd;
  }
  return Number(end);
}

/** Why the model file at `modelPath` cannot be used because it is shorter than its header says, or undefined. */
export async function truncatedModelRefusal(modelPath: string, info: GgufFileInfo): Promise<string | undefined> {
  const expected = ggufExpectedBytes(info);
  if (expected === undefined) return undefined;
  const actual = (await stat(modelPath)).size;
  if (actual >= expected) return undefined;
  if ((info.infoEndOffset ?? 0) > actual)
    return `the model file is truncated (${actual} bytes, cut inside its header): download it again (${modelPath}).`;
  return `the model file is truncated (${actual} of ${expected} bytes): download it again (${modelPath}).`;
}
