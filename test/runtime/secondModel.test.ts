// A second model beside the first in one worker's runtime (real node-llama-cpp, two tiny models): under a worker
// memory limit (SWARMBOARD_WORKER_MEMORY_LIMIT) set a few MiB above what the process holds with the first model, a
// model whose file does not fit is refused with the numbers, what is loaded and what to stop, and loads nothing;
// one that fits loads beside it; the same model again is never checked (it is the one already loaded).
import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { processMemoryRoom } from "../../src/runtime/modelRoom";
import { RuntimeOwner } from "../../src/runtime/runtimeOwner";
import { SwarmRuntimeError } from "../../src/runtime/runtimeErrors";
import { sharedModelPath } from "./runtimeTestModels";

const mib = 2 ** 20;

describe("a second model loads beside the first only if memory allows (two tiny models)", () => {
  const first = sharedModelPath("llama-2-tiny-random.gguf");
  const big = sharedModelPath("tiny-random-qwen2-chatml.gguf");
  const small = sharedModelPath("stories260K.gguf");
  let limit = "";
  const owner = new RuntimeOwner(() => processMemoryRoom({ SWARMBOARD_WORKER_MEMORY_LIMIT: limit }));
  after(() => owner.dispose());

  it("refuses a model past the worker's limit with the numbers, and loads one that fits", async () => {
    await owner.loadModel({ modelPath: first, threads: 1 });
    // Six MiB above what the process holds now: qwen2's 8 MiB file (10 MiB with its pool's quarter) cannot fit,
    // stories260K's 1.1 MiB (1.4 MiB) can.
    limit = `${Math.ceil(process.memoryUsage.rss() / mib) + 6}MiB`;
    assert.ok(statSync(big).size * 1.25 > 6 * mib && statSync(small).size * 1.25 < 3 * mib, "the models' sizes");
    await assert.rejects(owner.loadModel({ modelPath: big, threads: 1 }), (error: unknown) => {
      assert.ok(error instanceof SwarmRuntimeError && error.code === "memory-full", String(error));
      assert.match(
        error.message,
        /^Not loading tiny-random-qwen2-chatml\.gguf beside llama-2-tiny-random\.gguf \(2 MiB\)/,
      );
      assert.match(error.message, /it needs about 10 MiB \(its 8 MiB file and a quarter more/);
      assert.match(error.message, /MiB is left of the worker's limit of [\d,]+ MiB \(SWARMBOARD_WORKER_MEMORY_LIMIT\)/);
      assert.match(error.message, /stop its swarms and restart the worker/);
      return true;
    });
    assert.equal(owner.modelLoadCount(), 1, "the refused model loaded nothing");
    const again = await owner.loadModel({ modelPath: first, threads: 1 });
    assert.equal(again.model.disposed, false, "the loaded model is the same handle, unchecked");
    await owner.loadModel({ modelPath: small, threads: 1 });
    assert.equal(owner.modelLoadCount(), 2, "a model that fits loads beside the first");
  });
});
