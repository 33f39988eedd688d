// Makes the model-family test models (real tokenizers and chat templates from the llama.cpp source node-llama-cpp
// ships, tiny random weights) into their cache outside the clone, and prints where they are. The runtime tests
// make them the same way on first use; run this ahead (e.g. from CI set-up) to pay the ~30 s once.
// Needs the compiled test fixtures: `npm run compile:tests` first.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const compiled = path.join(root, "out", "test", "fixtures", "gguf", "familyModels.js");
if (!existsSync(compiled)) {
  console.error(`missing ${compiled}: run \`npm run compile:tests\` first, then run this script again.`);
  process.exit(1);
}
const { ensureFamilyModels, modelFamilies, familyModelFile } = createRequire(import.meta.url)(compiled);
const dir = await ensureFamilyModels();
for (const family of modelFamilies) console.log(`${family.label}: ${familyModelFile(dir, family)}`);
