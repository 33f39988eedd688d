// `swarmboard list` and `swarmboard clean-up` as a user runs them (the real CLI process on a real repository with
// a swarm's branches and worktrees): the list, a dry run with its code, a wrong code refused with exit 2, and the
// removal with the right one, the user's checkout untouched.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { SwarmRegistry } from "../../../src/workspace/swarmRegistry";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { cleanRepo, git, removeDir, snapshotCheckout, tempDir, write } from "../workspace/gitFixture";

const cli = path.resolve(__dirname, "../../../../dist/cli/main.js");

function runCli(...args: string[]) {
  assert.ok(existsSync(cli), `${cli} is missing: run npm run build first`);
  const out = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", timeout: 60_000, killSignal: "SIGKILL" });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

describe("cli: list and clean-up over the repository's registry", function () {
  this.timeout(60_000);
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

  it("lists a swarm, shows what a clean-up would lose, and removes it only with the dry run's code", async () => {
    const swarm = "organization-20261201-070112-ab12";
    const repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm });
    await repo.start({ includeUncommitted: false });
    const a1 = await repo.addAgent("agent-1");
    await repo.addAgent("agent-2");
    write(a1.path, "work.txt", "agent work\n");
    git(a1.path, "add", "-A");
    git(a1.path, "commit", "-q", "-m", "agent work");
    const registry = await SwarmRegistry.forRepository(repoDir);
    await registry.write({
      swarmId: swarm,
      workspace: repoDir,
      stateDir,
      goal: "tidy the lib",
      recipe: "organization",
      launchedBy: "vscode",
      createdAt: Date.parse("2026-12-01T07:01:12Z"),
      owner: { pid: process.pid, host: "another-machine" },
      ended: { outcome: "stopped", reason: "stopped by the user", at: Date.now() },
      version: "test",
    });
    const before = snapshotCheckout(repoDir);

    const listed = runCli("list", "--workspace", path.join(repoDir, "src"));
    assert.equal(listed.status, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`${swarm}  stopped  2026-12-01T07:01:12.000Z  organization  0 findings`));
    assert.match(listed.stdout, /branches: {2}3 branches: 1 unmerged, 0 merged, 2 without commits/);

    const dry = runCli("clean-up", swarm, "--workspace", repoDir);
    assert.equal(dry.status, 0, dry.stderr);
    assert.match(
      dry.stdout,
      new RegExp(`branch   swarmboard/${swarm}/agent-1: UNMERGED \\(1 commits not in your branch\\)`),
    );
    assert.match(dry.stdout, new RegExp(`branch   swarmboard/${swarm}/agent-2: no-commits`));
    const code = /--confirm ([0-9a-f]{8})/.exec(dry.stdout)?.[1];
    assert.ok(code, dry.stdout);
    assert.notEqual(git(repoDir, "for-each-ref", `refs/heads/swarmboard/${swarm}/`), "", "a dry run removes nothing");

    const wrong = runCli("clean-up", swarm, "--workspace", repoDir, "--confirm", "00000000");
    assert.equal(wrong.status, 2);
    assert.match(wrong.stderr, /The code 00000000 does not match what swarm .* holds now .*nothing was removed/);
    assert.notEqual(git(repoDir, "for-each-ref", `refs/heads/swarmboard/${swarm}/`), "");

    const done = runCli("clean-up", swarm, "--workspace", repoDir, "--confirm", code);
    assert.equal(done.status, 0, done.stderr);
    assert.match(done.stdout, /Removed 3 branches and 2 worktrees/);
    assert.equal(git(repoDir, "for-each-ref", `refs/heads/swarmboard/${swarm}/`), "");
    assert.deepEqual(snapshotCheckout(repoDir), before, "the user's checkout is untouched");
    assert.ok((await registry.get(swarm))?.cleanedUpAt !== undefined);
  });

  it("refuses a clean-up of a swarm the registry does not know, with exit code 2", () => {
    const out = runCli("clean-up", "nope", "--workspace", repoDir);
    assert.equal(out.status, 2);
    assert.match(out.stderr, /There is no swarm nope in the registry of/);
  });
});
