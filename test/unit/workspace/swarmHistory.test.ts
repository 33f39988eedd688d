// Past swarms on real git repositories: merged-ness measured against the user's branch (an empty branch is
// "no commits", not "merged"), outcomes (ended, running, interrupted), findings counted from the board, and a
// clean-up that lists what would be lost first and then removes only what the user confirmed.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { encodeEntry } from "../../../src/core/boardLogCodec";
import type { SwarmRecord } from "../../../src/protocol/swarmRecord";
import { branchStates } from "../../../src/workspace/branchStates";
import { cleanUpSwarm, planCleanUp } from "../../../src/workspace/swarmCleanUpPlan";
import { listPastSwarms } from "../../../src/workspace/swarmHistory";
import { resumeRefusal } from "../../../src/worker/historyService";
import { SwarmRegistry, thisProcessOwner } from "../../../src/workspace/swarmRegistry";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { cleanRepo, git, removeDir, snapshotCheckout, tempDir, write } from "./gitFixture";

function commitIn(dir: string, file: string, text: string): void {
  write(dir, file, text);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", `change ${file}`);
}

/** A swarm with an integration branch and three agents: a1 committed and merged into the user's branch through
 * the integration branch, a2 committed and unmerged, a3 never committed. */
async function swarmWithBranches(repoDir: string, stateDir: string, swarm: string) {
  const repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm });
  const base = git(repoDir, "rev-parse", "HEAD").trim();
  await repo.start({ includeUncommitted: false });
  const a1 = await repo.addAgent("a1");
  const a2 = await repo.addAgent("a2");
  const a3 = await repo.addAgent("a3");
  commitIn(a1.path, "a1.txt", "one\n");
  commitIn(a2.path, "a2.txt", "two\n");
  git(repoDir, "update-ref", `refs/heads/swarmboard/${swarm}/main`, git(a1.path, "rev-parse", "HEAD").trim());
  git(repoDir, "merge", "-q", "--no-ff", "-m", "take the swarm", `swarmboard/${swarm}/main`);
  return { repo, base, a1, a2, a3 };
}

function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  return child.pid!;
}

describe("workspace: past swarms and their clean-up", function () {
  this.timeout(120_000);
  let repoDir = "";
  let stateDir = "";
  beforeEach(() => {
    repoDir = cleanRepo();
    stateDir = tempDir("state");
  });
  afterEach(() => {
    removeDir(repoDir);
    removeDir(stateDir);
  });

  it("measures each branch against the user's branch: merged, unmerged or no commits", async () => {
    const { base } = await swarmWithBranches(repoDir, stateDir, "s1");
    const states = await branchStates(repoDir, "s1", base);
    const byBranch = new Map(states.map((s) => [s.branch, s]));
    assert.deepEqual(
      [...byBranch.keys()],
      ["swarmboard/s1/main", "swarmboard/s1/a1", "swarmboard/s1/a2", "swarmboard/s1/a3"],
    );
    assert.equal(byBranch.get("swarmboard/s1/main")?.state, "merged");
    assert.equal(byBranch.get("swarmboard/s1/a1")?.state, "merged");
    assert.equal(byBranch.get("swarmboard/s1/a1")?.inIntegration, true);
    assert.deepEqual(
      { state: byBranch.get("swarmboard/s1/a2")?.state, n: byBranch.get("swarmboard/s1/a2")?.unmergedCommits },
      { state: "unmerged", n: 1 },
    );
    assert.equal(byBranch.get("swarmboard/s1/a2")?.inIntegration, false);
    assert.equal(byBranch.get("swarmboard/s1/a3")?.state, "no-commits", "an empty branch is not 'merged'");

    // A swarm whose integration branch never moved says "no commits" too (not "merged into your HEAD").
    const other = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: "s2" });
    await other.start({ includeUncommitted: false });
    assert.equal((await branchStates(repoDir, "s2"))[0]?.state, "no-commits");
  });

  it("lists registered swarms newest first with outcome, branches and findings", async () => {
    await swarmWithBranches(repoDir, stateDir, "s1");
    const registry = await SwarmRegistry.forRepository(repoDir);
    const base: Omit<SwarmRecord, "swarmId" | "createdAt"> = {
      workspace: repoDir,
      stateDir,
      goal: "g",
      recipe: "organization",
      launchedBy: "vscode",
      owner: thisProcessOwner(),
      version: "test",
    };
    await registry.write({
      ...base,
      swarmId: "s1",
      createdAt: 10,
      ended: { outcome: "completed", reason: "every agent finished", at: 20 },
    });
    await registry.write({ ...base, swarmId: "s2", createdAt: 30, owner: { pid: deadPid(), host: base.owner.host } });
    await registry.write({ ...base, swarmId: "s3", createdAt: 40, stateDir: path.join(stateDir, "gone") });
    const entry = (id: string, kind: string) =>
      encodeEntry({ id, kind, author: "agent-1", time: 1, text: `entry ${id}` } as never);
    writeFileSync(
      path.join(stateDir, "board.jsonl"),
      entry("e1", "FACT") + entry("e2", "OBSERVED") + entry("e3", "MESSAGE"),
    );

    const { swarms, problems } = await listPastSwarms(registry);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      swarms.map((s) => [s.swarmId, s.outcome]),
      [
        ["s3", "running"],
        ["s2", "interrupted"],
        ["s1", "completed"],
      ],
    );
    const s1 = swarms.find((s) => s.swarmId === "s1")!;
    assert.equal(s1.findings, 2, "FACT and OBSERVED are findings; a MESSAGE is not");
    assert.equal(s1.branches.length, 4);
    assert.equal(s1.integrationBranch, "swarmboard/s1/main");
    assert.match(swarms[1]!.reason, /ended before the swarm did; resume it or clean it up/);
    assert.equal(swarms[0]!.stateDirExists, false);
  });

  it("resumes only a swarm no live process runs and that was not cleaned up", () => {
    const record: SwarmRecord = {
      swarmId: "s1",
      workspace: repoDir,
      stateDir,
      goal: "g",
      recipe: "organization",
      launchedBy: "cli",
      createdAt: 1,
      owner: { pid: deadPid(), host: thisProcessOwner().host },
      version: "test",
    };
    assert.equal(resumeRefusal(record), undefined, "an interrupted swarm may be resumed");
    assert.match(
      resumeRefusal({ ...record, owner: thisProcessOwner() })!,
      /Swarm s1 is still running \(running in process/,
    );
    assert.match(
      resumeRefusal({ ...record, cleanedUpAt: Date.parse("2026-12-01T08:00:00Z") })!,
      /Swarm s1 was cleaned up on 2026-12-01T08:00:00.000Z: its branches and worktrees are gone/,
    );
  });

  it("cleans up only after a dry run, refusing what the user did not confirm, and leaves the checkout alone", async () => {
    const { repo, base, a2 } = await swarmWithBranches(repoDir, stateDir, "s1");
    write(a2.path, "a2.txt", "uncommitted edit\n");
    const before = snapshotCheckout(repoDir);

    const plan = await planCleanUp(repo, base);
    assert.deepEqual(plan.unmerged, ["swarmboard/s1/a2"]);
    assert.deepEqual(plan.uncommitted, [a2.path]);
    assert.equal(plan.worktrees.length, 3);
    assert.deepEqual(snapshotCheckout(repoDir), before, "a dry run changes nothing");

    await assert.rejects(
      cleanUpSwarm(repo, { unmerged: ["swarmboard/s1/a2"], uncommitted: [] }, base),
      /Nothing was removed: uncommitted changes in .*a2 would be lost and was not in what you confirmed/,
    );
    assert.ok(existsSync(a2.path), "a refused clean-up removes nothing");

    const done = await cleanUpSwarm(repo, { unmerged: plan.unmerged, uncommitted: plan.uncommitted }, base);
    assert.deepEqual(done.removed.branches.sort(), [
      "swarmboard/s1/a1",
      "swarmboard/s1/a2",
      "swarmboard/s1/a3",
      "swarmboard/s1/main",
    ]);
    assert.equal(done.removed.worktrees.length, 3);
    assert.equal(git(repoDir, "for-each-ref", "refs/heads/swarmboard/"), "");
    assert.ok(!existsSync(a2.path));
    assert.deepEqual(snapshotCheckout(repoDir), before, "the user's checkout is untouched");
  });

  it("refuses to clean up while a worktree the swarm did not make has one of its branches", async () => {
    const { repo, base } = await swarmWithBranches(repoDir, stateDir, "s1");
    const mine = path.join(stateDir, "user-worktree");
    mkdirSync(path.dirname(mine), { recursive: true });
    git(repoDir, "worktree", "add", "-q", mine, "swarmboard/s1/main");
    await assert.rejects(
      cleanUpSwarm(repo, { unmerged: ["swarmboard/s1/a2"], uncommitted: [] }, base),
      /user-worktree \(swarmboard\/s1\/main\) has a branch of swarm s1 checked out and is not one of the swarm's worktrees/,
    );
    assert.notEqual(git(repoDir, "for-each-ref", "refs/heads/swarmboard/s1/"), "");
  });
});
