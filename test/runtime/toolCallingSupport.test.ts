// A model that cannot call tools is refused from its metadata, before loading, with the reason and what to pick;
// the family test models (real templates with tool calling) are accepted.
import assert from "node:assert/strict";
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

  it("accepts every family's test model", async () => {
    const dir = await ensureFamilyModels();
    for (const family of modelFamilies) {
      assert.equal(await toolCallingRefusal(familyModelFile(dir, family)), undefined, family.label);
    }
  });
});
