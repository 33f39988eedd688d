// The per-repository swarm registry on real git repositories: where it lives (found from a linked worktree too),
// atomic records, unreadable files named, unique swarm ids, and the records a launch and a resume write.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { builtinRecipes } from "../../../src/core/recipeCatalog";
import { candidateSwarmId, newSwarmId } from "../../../src/workspace/swarmIds";
import { SwarmRegistry, thisProcessOwner } from "../../../src/workspace/swarmRegistry";
import { readSavedSwarm, recordNewSwarm, recordResumedSwarm, recordSwarmEnd } from "../../../src/worker/swarmRecords";
import type { SwarmRecord } from "../../../src/protocol/swarmRecord";
import { cleanRepo, git, removeDir, tempDir } from "./gitFixture";

function record(swarmId: string, stateDir: string): SwarmRecord {
  return {
    swarmId,
    workspace: "/nowhere",
    stateDir,
    goal: "a goal",
    recipe: "organization",
    launchedBy: "cli",
    createdAt: 1,
    owner: thisProcessOwner(),
    version: "test",
  };
}

const recipe = { ...builtinRecipes().get("organization")!, name: "review-pairs" };

describe("workspace: the swarm registry", function () {
  this.timeout(60_000);
  let repoDir = "";
  let stateRoot = "";
  beforeEach(() => {
    repoDir = cleanRepo();
    stateRoot = tempDir("state");
  });
  afterEach(() => {
    removeDir(repoDir);
    removeDir(stateRoot);
  });

  it("keeps one record per swarm under the git common dir, found from a linked worktree too", async () => {
    const registry = await SwarmRegistry.forRepository(path.join(repoDir, "src"));
    await registry.write(record("s-1", stateRoot));
    assert.ok(existsSync(path.join(repoDir, ".git", "swarmboard", "swarms", "s-1.json")));
    assert.equal(git(repoDir, "status", "--porcelain"), "", "the registry never shows in git status");
    const linked = path.join(stateRoot, "linked");
    git(repoDir, "worktree", "add", "-q", "-b", "other", linked);
    const fromLinked = await SwarmRegistry.forRepository(linked);
    assert.deepEqual(
      (await fromLinked.read()).records.map((r) => r.swarmId),
      ["s-1"],
    );
    await fromLinked.update("s-1", (r) => ({ ...r, cleanedUpAt: 5 }));
    assert.equal((await registry.get("s-1"))?.cleanedUpAt, 5);
    assert.deepEqual(
      readdirSync(registry.dir).filter((n) => n.endsWith(".tmp")),
      [],
      "no temporary file is left behind",
    );
    await assert.rejects(
      registry.update("nope", (r) => r),
      /There is no swarm nope in the registry/,
    );
  });

  it("names a broken record file and keeps reading the others", async () => {
    const registry = await SwarmRegistry.forRepository(repoDir);
    await registry.write(record("good", stateRoot));
    writeFileSync(path.join(registry.dir, "broken.json"), "{ not json");
    const { records, problems } = await registry.read();
    assert.deepEqual(
      records.map((r) => r.swarmId),
      ["good"],
    );
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /broken\.json is not a swarm record .*move it away/);
  });

  it("gives ids that no record and no swarmboard/<id>/ branch of the repository uses", async () => {
    const registry = await SwarmRegistry.forRepository(repoDir);
    const now = new Date("2026-12-01T07:01:12.345Z");
    assert.equal(candidateSwarmId("Review Pairs!", now, "ab12"), "review-pairs-20261201-070112-ab12");
    assert.match(candidateSwarmId("x".repeat(80), now, "ab12"), /^x{32}-20261201-070112-ab12$/);
    const taken = candidateSwarmId("organization", now, "aaaa");
    git(repoDir, "branch", `swarmboard/${taken}/main`);
    await registry.write(record(candidateSwarmId("organization", now, "bbbb"), stateRoot));
    const tails = ["aaaa", "bbbb", "cccc"];
    const id = await newSwarmId("organization", registry, now, () => tails.shift()!);
    assert.equal(id, "organization-20261201-070112-cccc");
  });

  it("records a new swarm (recipe, inputs, registry) and reads it back for a resume", async () => {
    const first = await recordNewSwarm({
      recipe,
      inputs: { goal: "g1", recipe: "review-pairs", modelPath: "/m.gguf", workspace: repoDir, threads: 1 },
      stateDir: (id) => path.join(stateRoot, id),
      launchedBy: "cli",
    });
    const second = await recordNewSwarm({
      recipe,
      inputs: { goal: "g2", recipe: "review-pairs", modelPath: "/m.gguf", workspace: repoDir, threads: 1 },
      stateDir: (id) => path.join(stateRoot, id),
      launchedBy: "vscode",
    });
    assert.notEqual(first.swarmId, second.swarmId, "two launches in a row get different ids");
    assert.match(first.swarmId, /^review-pairs-\d{8}-\d{6}-[0-9a-f]{4}$/);
    const saved = await readSavedSwarm(first.stateDir);
    assert.equal(saved.swarmId, first.swarmId);
    assert.equal(saved.inputs.goal, "g1");
    assert.equal(saved.recipe.name, "review-pairs");
    const registry = await SwarmRegistry.forRepository(repoDir);
    const rec = await registry.get(first.swarmId);
    assert.equal(rec?.baseSha, git(repoDir, "rev-parse", "HEAD").trim());
    assert.equal(rec?.owner.pid, process.pid);

    await recordSwarmEnd(first, new Error("boom"));
    assert.deepEqual(
      { ...(await registry.get(first.swarmId))?.ended, at: 0 },
      { outcome: "failed", reason: "boom", at: 0 },
    );
    await recordResumedSwarm(saved, first.stateDir, "cli");
    assert.equal((await registry.get(first.swarmId))?.ended, undefined, "a resumed swarm runs again");
  });

  it("says what is missing when a state dir cannot be resumed", async () => {
    await assert.rejects(readSavedSwarm(path.join(stateRoot, "none")), /There is no swarm state dir at/);
    writeFileSync(path.join(stateRoot, "settings.json"), JSON.stringify({ goal: "g" }));
    await assert.rejects(readSavedSwarm(stateRoot), /settings\.json is not a swarm's saved inputs \(recipe: /);
    const legacy = { goal: "g", recipe: "x", modelPath: "/m", workspace: repoDir, threads: 2, plain: true };
    writeFileSync(path.join(stateRoot, "settings.json"), JSON.stringify(legacy));
    writeFileSync(path.join(stateRoot, "recipe.json"), JSON.stringify({ ...recipe, name: "e2e" }));
    assert.equal((await readSavedSwarm(stateRoot)).swarmId, "e2e", "a run from before unique ids keeps its id");
    assert.equal(JSON.parse(readFileSync(path.join(stateRoot, "settings.json"), "utf8")).plain, true);
  });
});
