// A model that cannot call tools is refused from its metadata, before loading, with the reason and what to pick;
// the family test models (real templates with tool calling) are accepted.
import assert from "node:assert/strict";
import { chmodSync, copyFileSync, mkdtempSync, rmSync, statSync, truncateSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadNodeLlamaCpp } from "../../src/runtime/nodeLlamaCpp";
import { toolCallingRefusal } from "../../src/runtime/toolCallingSupport";
import { ensureFamilyModels, familyModelFile, modelFamilies } from "../fixtures/gguf/familyModels";
import { sharedModelPath } from "./runtimeTestModels";

describe("tool calling support, judged before loading", function () {
  this.timeout(600_000);

  it("refuses a story model (no chat template) with the reason and models to pick", async () => {
    const reason = await toolCallingRefusal(sharedModelPath("stories260K.gguf"));
    assert.match(reason ?? "", /stories260K\.gguf has no chat template: .*could not act\. Pick an instruct model/);
    assert.match(reason ?? "", /Qwen2\.5-Coder-1\.5B-Instruct/);
  });

  it("refuses a truncated GGUF as truncated, with both sizes and its path, not as having no chat template", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "swarmboard-truncated-"));
    try {
      const whole = sharedModelPath("tiny-random-qwen2-chatml.gguf");
      const size = statSync(whole).size;
      const { readGgufFileInfo } = await loadNodeLlamaCpp();
      const file = path.join(dir, "cut.gguf");
      copyFileSync(whole, file);
      chmodSync(file, 0o644);
      // Its template has no tool calling: the whole copy is refused for that, never as truncated.
      assert.match((await toolCallingRefusal(file)) ?? "", /cut\.gguf's chat template has no tool calling/);
      const dataStart = (await readGgufFileInfo(whole, { readTensorInfo: true })).infoEndOffset ?? size;
      for (const cut of [size - 1, Math.floor((dataStart + size) / 2), dataStart]) {
        truncateSync(file, cut);
        const reason = await toolCallingRefusal(file);
        const expected = `the model file is truncated (${cut} of ${size} bytes): download it again (${file}).`;
        assert.equal(reason, expected, `cut at ${cut}`);
      }
      // Cut inside its header, the file still reads (as zeros past its end): refused as cut there, not templateless.
      for (const cut of [dataStart - 1, 1_000_000, 100]) {
        truncateSync(file, cut);
        const reason = await toolCallingRefusal(file);
        const expected = `the model file is truncated (${cut} bytes, cut inside its header): download it again (${file}).`;
        assert.equal(reason, expected, `cut at ${cut}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("accepts every family's test model", async () => {
    const dir = await ensureFamilyModels();
    for (const family of modelFamilies) {
      assert.equal(await toolCallingRefusal(familyModelFile(dir, family)), undefined, family.label);
    }
  });
});
