// The shape every per-family runtime suite shares: the family test models written once (cached by
// ensureFamilyModels), then one describe block per family with its model loaded before and disposed after.
import type { SwarmModel } from "../../../src/runtime/loadModel";
import { ensureFamilyModels, familyModelFile, modelFamilies, type ModelFamily } from "../../fixtures/gguf/familyModels";
import { testRuntime } from "../runtimeTestModels";

/** `body` declares a family's tests; `loaded()` gives its model once the block's `before` has run. */
export function describeEachFamily(body: (family: ModelFamily, loaded: () => SwarmModel) => void): void {
  let dir: string;
  before(async function () {
    this.timeout(600_000);
    dir = await ensureFamilyModels();
  });
  for (const family of modelFamilies) {
    describe(family.label, () => {
      let model: SwarmModel | undefined;
      before(async () => {
        model = await testRuntime.loadModel({ modelPath: familyModelFile(dir, family), threads: 1 });
      });
      after(async () => {
        await model?.dispose();
      });
      body(family, () => {
        if (model === undefined) throw new Error(`${family.label}: its test model is not loaded`);
        return model;
      });
    });
  }
}

/** Text without whitespace, for comparing renderings that differ only in blank lines. */
export const squeeze = (text: string) => text.replace(/\s+/g, "");
