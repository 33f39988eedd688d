// The GGUF writer, checked against the real node-llama-cpp: what it writes loads, reads back, tokenizes and
// generates; shapes llama.cpp could not use are refused before anything is written.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Llama, LlamaModel, Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import { byteVocabularyIds } from "../fixtures/gguf/byteVocabulary";
import { type GgmlTensorType } from "../fixtures/gguf/ggufEncoding";
import { LlamaShapeError, tinyShape, type LlamaGgufSpec } from "../fixtures/gguf/llamaShape";
import { writeLlamaGguf } from "../fixtures/gguf/writeLlamaGguf";

async function loadLlama(): Promise<Llama> {
  const { getLlama, LlamaLogLevel } = await import("node-llama-cpp");
  return getLlama({ gpu: false, logLevel: LlamaLogLevel.error });
}

/** Greedy generation of `count` tokens after `prompt`, on one thread. */
async function generate(model: LlamaModel, prompt: string, count: number): Promise<number[]> {
  const context = await model.createContext({ contextSize: 128, threads: 1 });
  try {
    const out: number[] = [];
    for await (const token of context.getSequence().evaluate(model.tokenize(prompt), { temperature: 0 })) {
      out.push(token);
      if (out.length === count) break;
    }
    return out;
  } finally {
    await context.dispose();
  }
}

function sha256(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

describe("GGUF writer (real node-llama-cpp)", function () {
  let dir: string;
  let llama: Llama;
  const spec: LlamaGgufSpec = { ...tinyShape, tensorType: "F32", seed: 11 };

  before(async function () {
    dir = mkdtempSync(path.join(tmpdir(), "swarmboard-gguf-"));
    llama = await loadLlama();
  });

  after(async function () {
    await llama?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("writes a model whose metadata reads back as the requested shape", async function () {
    const written = await writeLlamaGguf(path.join(dir, "meta.gguf"), {
      ...spec,
      layers: 3,
      heads: 8,
      kvHeads: 2,
      contextLength: 777,
    });
    const model = await llama.loadModel({ modelPath: written.path });
    try {
      const meta = model.fileInfo.metadata;
      assert.equal(meta.general.architecture, "llama");
      const arch = meta.llama;
      assert.ok(arch !== undefined, "the file has llama.* metadata");
      assert.equal(arch.block_count, 3);
      assert.equal(arch.embedding_length, tinyShape.width);
      assert.equal(arch.attention.head_count, 8);
      assert.equal(arch.attention.head_count_kv, 2);
      assert.equal(arch.context_length, 777);
      assert.equal(arch.feed_forward_length, tinyShape.ffn);
      assert.equal(model.trainContextSize, 777);
      assert.equal(model.tokens.bos, byteVocabularyIds.bos);
      assert.equal(model.tokens.eos, byteVocabularyIds.eos);
    } finally {
      await model.dispose();
    }
  });

  it("tokenizes bytes and detokenizes back to the same text", async function () {
    const written = await writeLlamaGguf(path.join(dir, "tok.gguf"), spec);
    const model = await llama.loadModel({ modelPath: written.path });
    try {
      const text = "Hello, wörld!\n  tabs\tand ünïcödé ✓";
      const tokens = model.tokenize(text);
      assert.equal(tokens[0], byteVocabularyIds.firstByte + "H".charCodeAt(0));
      assert.ok(tokens.includes(byteVocabularyIds.space as Token), "spaces become the SPM space token");
      assert.equal(model.detokenize(tokens), text);
    } finally {
      await model.dispose();
    }
  });

  for (const tensorType of ["F32", "F16", "Q8_0"] satisfies GgmlTensorType[]) {
    it(`generates tokens from ${tensorType} weights, the same ones twice`, async function () {
      const written = await writeLlamaGguf(path.join(dir, `gen-${tensorType}.gguf`), { ...spec, tensorType });
      const model = await llama.loadModel({ modelPath: written.path });
      try {
        const first = await generate(model, "Once upon a time", 6);
        assert.equal(first.length, 6);
        for (const token of first)
          assert.ok(token >= 0 && token < written.vocabSize, `token ${token} is in the vocabulary`);
        assert.deepEqual(await generate(model, "Once upon a time", 6), first);
      } finally {
        await model.dispose();
      }
    });
  }

  it("pads the vocabulary with unused tokens to a requested size", async function () {
    const written = await writeLlamaGguf(path.join(dir, "vocab.gguf"), { ...spec, vocabSize: 1000 });
    const model = await llama.loadModel({ modelPath: written.path });
    try {
      assert.equal(written.vocabSize, 1000);
      assert.equal(model.fileInfo.metadata.tokenizer.ggml.tokens.length, 1000);
      assert.equal(model.detokenize(model.tokenize("abc")), "abc");
      assert.equal((await generate(model, "abc", 3)).length, 3);
    } finally {
      await model.dispose();
    }
  });

  it("writes the same bytes for the same seed and different bytes for another", async function () {
    const a = await writeLlamaGguf(path.join(dir, "a.gguf"), { ...spec, tensorType: "Q8_0" });
    const b = await writeLlamaGguf(path.join(dir, "b.gguf"), { ...spec, tensorType: "Q8_0" });
    const c = await writeLlamaGguf(path.join(dir, "c.gguf"), { ...spec, tensorType: "Q8_0", seed: 12 });
    assert.equal(sha256(a.path), sha256(b.path));
    assert.notEqual(sha256(a.path), sha256(c.path));
  });

  const badShapes: [string, Partial<LlamaGgufSpec>, RegExp][] = [
    ["heads that do not divide the width", { width: 64, heads: 6, kvHeads: 2 }, /heads \(6\) must divide width \(64\)/],
    ["KV heads that do not divide the heads", { heads: 4, kvHeads: 3 }, /kvHeads \(3\) must divide heads \(4\)/],
    ["an odd head dimension", { width: 60, heads: 4, kvHeads: 2 }, /head dimension .* must be even/],
    [
      "a Q8_0 width that is not a multiple of 32",
      { width: 48, heads: 4, kvHeads: 2, tensorType: "Q8_0" },
      /Q8_0 .* width \(48\)/,
    ],
    ["zero layers", { layers: 0 }, /layers must be a positive integer, got 0/],
    ["a vocabulary smaller than the bytes", { vocabSize: 100 }, /vocabSize must be an integer of at least 260/],
  ];
  for (const [what, change, message] of badShapes) {
    it(`refuses ${what} with a clear error and writes nothing`, async function () {
      const target = path.join(dir, "bad.gguf");
      await assert.rejects(writeLlamaGguf(target, { ...spec, ...change }), (error: unknown) => {
        assert.ok(error instanceof LlamaShapeError, `a LlamaShapeError, got ${String(error)}`);
        assert.match(error.message, message);
        return true;
      });
      assert.equal(existsSync(target), false);
    });
  }
});
