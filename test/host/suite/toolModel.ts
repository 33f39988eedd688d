// A model whose chat template calls tools, for the host tests that select a model (Select Model refuses a story
// model such as stories260K): the Qwen2.5-Instruct family test model, made offline and cached like the runtime tests'.
import { ensureFamilyModels, familyModelFile, modelFamilies } from "../../fixtures/gguf/familyModels";

export async function toolCallingModelPath(): Promise<string> {
  const family = modelFamilies.find((f) => f.id === "qwen2.5");
  if (!family) throw new Error("the Qwen2.5 family is missing from test/fixtures/gguf/familyModels.ts");
  return familyModelFile(await ensureFamilyModels([family]), family);
}
