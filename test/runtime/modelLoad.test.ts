// Loading a model: a missing, unreadable or corrupt GGUF is a typed ModelLoadError with the path, the cause and
// what to do; a good one is loaded once and its KV facts are read from its metadata.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ModelLoadError, type ModelLoadErrorCode } from "../../src/runtime/runtimeErrors";
import { loadStoriesModel, sharedModelPath, testRuntime } from "./runtimeTestModels";

function expectLoadError(code: ModelLoadErrorCode, modelPath: string, message: RegExp) {
  return (error: unknown): boolean => {
    assert.ok(error instanceof ModelLoadError, `expected a ModelLoadError, got ${String(error)}`);
    assert.equal(error.code, code);
    assert.equal(error.path, modelPath);
    assert.match(error.message, message);
    return true;
  };
}

describe("loading a model", () => {
  let dir: string;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "swarmboard-model-"));
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("names a missing file and the setting to fix", async () => {
    const missing = path.join(dir, "nowhere.gguf");
    await assert.rejects(
      testRuntime.loadModel({ modelPath: missing, threads: 1 }),
      expectLoadError("model-not-found", missing, /No model file at .*swarmboard\.modelPath/),
    );
  });

  it("refuses a folder as unreadable", async () => {
    await assert.rejects(
      testRuntime.loadModel({ modelPath: dir, threads: 1 }),
      expectLoadError("model-unreadable", dir, /not a file/),
    );
  });

  it("refuses garbage bytes as not a GGUF model", async () => {
    const garbage = path.join(dir, "garbage.gguf");
    await writeFile(garbage, Buffer.from("this is not a model at all, just some text bytes"));
    await assert.rejects(
      testRuntime.loadModel({ modelPath: garbage, threads: 1 }),
      expectLoadError("model-corrupt", garbage, /not a GGUF model/),
    );
  });

  it("refuses a truncated GGUF as truncated, with both sizes and what to do", async () => {
    const whole = await readFile(sharedModelPath("stories260K.gguf"));
    const truncated = path.join(dir, "truncated.gguf");
    await writeFile(truncated, whole.subarray(0, whole.length - 1000));
    await assert.rejects(
      testRuntime.loadModel({ modelPath: truncated, threads: 1 }),
      expectLoadError(
        "model-corrupt",
        truncated,
        new RegExp(
          `^the model file is truncated \\(${whole.length - 1000} of ${whole.length} bytes\\): download it again`,
        ),
      ),
    );
  });

  it("refuses a GGUF cut inside its header as truncated", async () => {
    const whole = await readFile(sharedModelPath("stories260K.gguf"));
    const truncated = path.join(dir, "header-cut.gguf");
    await writeFile(truncated, whole.subarray(0, 100));
    await assert.rejects(
      testRuntime.loadModel({ modelPath: truncated, threads: 1 }),
      expectLoadError("model-corrupt", truncated, /^the model file is truncated \(100 bytes, cut inside its header\)/),
    );
  });

  it("loads a good model once and reads its KV facts", async () => {
    const first = await loadStoriesModel();
    const second = await loadStoriesModel();
    assert.equal(first, second, "the same handle, not a second copy of the weights");
    assert.equal(first.facts.architecture, "llama");
    assert.equal(first.facts.trainContextSize, 2048);
    assert.equal(first.facts.vocabularySize, 512);
    assert.equal(first.detokenize(first.tokenize("Once upon a time")), "Once upon a time");
  });
});
