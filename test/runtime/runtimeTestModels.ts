// Where the runtime tests find their models. The shared models folder is outside the clone
// (SWARMBOARD_MODELS_DIR, or <repo>/../shared/models); a missing model fails the test loudly, never skips it.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import type { SwarmModel } from "../../src/runtime/loadModel";
import { RuntimeOwner } from "../../src/runtime/runtimeOwner";

/** The runtime tests' one owner of Llamas and models: a model is loaded once per test run, as in a worker. */
export const testRuntime = new RuntimeOwner();

/** The repository root, found from this file whether it runs from test/ or from out/test/. */
export function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, "CONTRIBUTING.md"))) {
    const parent = path.dirname(dir);
    assert.notEqual(parent, dir, "cannot find the repository root above " + __dirname);
    dir = parent;
  }
  return dir;
}

export function sharedModelPath(fileName: string): string {
  const dir = process.env.SWARMBOARD_MODELS_DIR ?? path.join(repoRoot(), "..", "shared", "models");
  const file = path.join(dir, fileName);
  assert.ok(
    existsSync(file),
    `missing test model ${file}: set SWARMBOARD_MODELS_DIR to the folder that holds ${fileName}`,
  );
  return file;
}

/** stories260K: a trained 260K-parameter llama; greedy output is deterministic. Loaded once per test run. */
export function loadStoriesModel(): Promise<SwarmModel> {
  return testRuntime.loadModel({ modelPath: sharedModelPath("stories260K.gguf"), threads: 1 });
}

export const storyTrunk =
  "Once upon a time, there was a little girl named Lily. She loved to play outside in the park with her friends. " +
  "One day, she saw a big red ball under a tree.";
