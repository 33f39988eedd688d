// The usual layout on a desktop: the user's checkout and the swarm's state (worktrees) both under the home. The
// sandbox hides the home and the checkout, and binds the git dir and the worktree back inside them: git works,
// the worktree is writable, the checkout is empty but for its git dir and read-only, the home shows no keys.
import { callTool } from "./callTool";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { approveAllApprover } from "../../../src/workspace/approvals";
import { probeBubblewrap } from "../../../src/workspace/bubblewrap";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { git, removeDir, tempDir } from "./gitFixture";

describe("workspace: the sandbox with the checkout and the worktrees under the home", function () {
  this.timeout(60_000);
  let home = "";
  const realHome = process.env.HOME;
  after(() => {
    process.env.HOME = realHome;
    removeDir(home);
  });

  it("runs git and writes in the worktree, and shows neither the home's keys nor the checkout's files", async () => {
    const probe = await probeBubblewrap();
    if (!probe.usable) assert.fail(`bubblewrap is needed here and is not usable: ${probe.reason}`);
    home = tempDir("home");
    process.env.HOME = home;
    const checkout = path.join(home, "code", "project");
    mkdirSync(checkout, { recursive: true });
    git(checkout, "-c", "init.defaultBranch=main", "init", "-q");
    writeFileSync(path.join(checkout, "README.md"), "# hl-readme\n");
    git(checkout, "add", "-A");
    git(checkout, "commit", "-q", "-m", "hl-first");
    mkdirSync(path.join(home, ".ssh"));
    writeFileSync(path.join(home, ".ssh", "id_rsa"), "hl-key\n");
    const stateDir = path.join(home, ".config", "swarmboard-state");
    const repo = await SwarmRepository.open({ repoPath: checkout, stateDir, swarm: "hl" });
    await repo.start({ includeUncommitted: false });
    const policy = new CommandPolicy({ allow: [], ask: [], deny: [] });
    const ws = await AgentWorkspace.open(repo, "a1", { policy, approver: approveAllApprover, sandbox: probe });
    const out = await callTool(ws, "run_command", {
      command: `git log --oneline -1; echo made > made.txt; ls -A ~ '${checkout}'; node -e "require('fs').writeFileSync(process.argv[1], 'x')" '${path.join(checkout, "pwned.txt")}'`,
      timeoutMs: 20_000,
    });
    assert.ok(out.ok && out.result.ran && out.result.sandboxed, JSON.stringify(out));
    const output = out.result.output;
    assert.match(output, /hl-first/, `git works inside: ${output}`);
    assert.ok(existsSync(path.join(ws.worktree.path, "made.txt")), "the worktree is writable");
    assert.doesNotMatch(output, /\.ssh|README\.md|hl-key|hl-readme/, `the home or the checkout shows: ${output}`);
    assert.match(output, /EROFS/, `the checkout's place is read-only: ${output}`);
    assert.equal(existsSync(path.join(checkout, "pwned.txt")), false);
  });
});
