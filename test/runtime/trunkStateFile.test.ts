// A trunk saved to disk and restored in a new context (stories260K, shared cells): the restore decodes only the
// tokens after the saved ones (or after the start it shares with a changed trunk) and its agents generate exactly what agents of a freshly decoded trunk generate; a
// truncated state file, a changed header, or a trunk that shares nothing with the saved one are refused with a note, and
// the trunk is left empty for the caller to decode.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, truncate, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { SwarmModel } from "../../src/runtime/loadModel";
import { createSwarmContext, type SwarmContext } from "../../src/runtime/local/swarmContext";
import { loadStoriesModel, storyTrunk } from "./runtimeTestModels";

type Tokens = SwarmContext["trunkTokens"];

const extra = " Lily ran to the ball and kicked it high.";

async function greedy(swarm: SwarmContext): Promise<number[]> {
  const agent = await swarm.fork("reader", { expectedTail: 12 });
  const { tokens } = await agent.generate({ maxTokens: 10, sampling: { temperature: 0 } });
  await agent.release();
  return tokens;
}

describe("a trunk saved to disk and restored (stories260K)", () => {
  let model: SwarmModel;
  let dir: string;
  let file: string;
  let expected: number[];
  let trunk: Tokens;
  const open = () => createSwarmContext(model, { maxAgents: 2, kvCells: 1024, threads: 1 });

  before(async () => {
    model = await loadStoriesModel();
    dir = await mkdtemp(path.join(os.tmpdir(), "swarmboard-trunk-state-"));
    file = path.join(dir, "trunk.json");
    const saved = await open();
    try {
      await saved.appendToTrunk(storyTrunk);
      await saved.saveTrunk(file);
      await saved.appendToTrunk(extra);
      trunk = saved.trunkTokens;
      expected = await greedy(saved);
    } finally {
      await saved.dispose();
    }
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("restores the saved cells, decodes only the rest, and generates what a fresh decode generates", async () => {
    const swarm = await open();
    try {
      const restore = await swarm.restoreTrunk(file, trunk);
      const header = JSON.parse(await readFile(file, "utf8")) as { tokens: number[] };
      assert.deepEqual(restore, { restored: true, restoredTokens: header.tokens.length });
      const stats = swarm.stats();
      assert.equal(stats.dispatchedTokens, trunk.length - 1 - header.tokens.length, "only the tokens after the saved");
      assert.deepEqual(swarm.trunkTokens, trunk);
      for (const check of swarm.checkPositions()) assert.equal(check.llamaMaxPosition + 1, check.ledgerCells);
      assert.deepEqual(await greedy(swarm), expected);
    } finally {
      await swarm.dispose();
    }
  });

  async function refused(why: RegExp, tokens: Tokens = trunk): Promise<void> {
    const swarm = await open();
    try {
      const restore = await swarm.restoreTrunk(file, tokens);
      assert.equal(restore.restored, false);
      assert.ok(!restore.restored && why.test(restore.note), JSON.stringify(restore));
      assert.equal(swarm.stats().trunkCells, 0, "the trunk is left empty");
      await swarm.appendToTrunk(trunk.slice(1));
      assert.deepEqual(await greedy(swarm), expected, "decoding it as usual still works");
    } finally {
      await swarm.dispose();
    }
  }

  it("refuses a trunk that shares nothing with the saved one past BOS", async () => {
    await refused(/it shares no tokens with this trunk past the first/, [
      trunk[0],
      ...model.tokenize(" Tom had a car."),
    ]);
  });

  it("restores the shared start of a trunk whose tail changed, erases the rest, and decodes only the new tail", async () => {
    const header = JSON.parse(await readFile(file, "utf8")) as { tokens: number[] };
    const shared = header.tokens.length - 6;
    const changed = [...header.tokens.slice(0, shared), ...model.tokenize(" Tom had a red car.")] as Tokens;
    const fresh = await open();
    let freshOutput: number[];
    try {
      await fresh.appendToTrunk(changed.slice(1));
      freshOutput = await greedy(fresh);
    } finally {
      await fresh.dispose();
    }
    const swarm = await open();
    try {
      const restore = await swarm.restoreTrunk(file, changed);
      assert.deepEqual(restore, { restored: true, restoredTokens: shared });
      assert.equal(swarm.stats().dispatchedTokens, changed.length - 1 - shared, "only the changed tail is decoded");
      assert.deepEqual(swarm.trunkTokens, changed);
      for (const check of swarm.checkPositions()) assert.equal(check.llamaMaxPosition + 1, check.ledgerCells);
      assert.deepEqual(await greedy(swarm), freshOutput);
    } finally {
      await swarm.dispose();
    }
  });

  it("refuses a header that names another model or KV type", async () => {
    const original = await readFile(file, "utf8");
    try {
      await writeFile(file, JSON.stringify({ ...JSON.parse(original), kvType: "Q8_0" }));
      await refused(/holds Q8_0 cells and this pool is F16/);
      await writeFile(
        file,
        JSON.stringify({ ...JSON.parse(original), model: { path: "/elsewhere.gguf", bytes: 1, mtimeMs: 1 } }),
      );
      await refused(/made with another model/);
      await writeFile(file, "{ not json");
      await refused(/header cannot be read/);
    } finally {
      await writeFile(file, original);
    }
  });

  it("refuses an altered state file of the right size, then a truncated one", async () => {
    const header = JSON.parse(await readFile(file, "utf8")) as { stateBytes: number };
    const state = await readFile(`${file}.kv`);
    const altered = Buffer.from(state);
    altered[Math.floor(altered.length / 2)] ^= 0xff;
    await writeFile(`${file}.kv`, altered);
    await refused(/SHA-256 does not match/);
    await writeFile(`${file}.kv`, state);
    await truncate(`${file}.kv`, Math.floor(header.stateBytes / 2));
    await refused(/the state file is \d+, not \d+ bytes/);
  });
});
