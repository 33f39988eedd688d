// Done-when: a sandboxed run whose test command exits 127 (its runner missing) refuses the merge with "tests
// could not run" and the command's output; the integration branch does not move. (It was "passed": 0 passed,
// 0 failed, exit 127 on both sides.) Needs a usable bwrap: the verifier runs tests only in the sandbox.
import assert from "node:assert/strict";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { probeBubblewrap } from "../../../src/workspace/bubblewrap";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { MergeVerifier } from "../../../src/workspace/mergeVerifier";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { callTool } from "./callTool";
import { cleanRepo, git, removeDir, tempDir, write } from "./gitFixture";

describe("workspace: a merge whose tests could not run", function () {
  this.timeout(120_000);
  let project = "";
  let stateDir = "";

  before(() => {
    project = cleanRepo();
    const scripts = { test: "swarmboard-no-such-runner --recursive" };
    write(project, "package.json", JSON.stringify({ name: "cnr", private: true, scripts }));
    git(project, "add", "-A");
    git(project, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "a test script");
    stateDir = tempDir("cnr-state");
  });
  after(() => {
    removeDir(project);
    removeDir(stateDir);
  });

  it("is refused, saying the tests could not run and why, and the integration branch stays", async () => {
    const sandbox = await probeBubblewrap();
    assert.ok(sandbox.usable, `bubblewrap is needed for this test: ${sandbox.usable ? "" : sandbox.reason}`);
    const repo = await SwarmRepository.open({ repoPath: project, stateDir, swarm: "cnr" });
    await repo.start({ includeUncommitted: false });
    const policy = new CommandPolicy({ allow: ["npm test"], ask: [], deny: [] });
    const verifier = new MergeVerifier(repo, { testCommand: "npm test", policy, sandbox });
    const ws = await AgentWorkspace.open(repo, "a1", { policy, sandbox, verifier });
    const integrationBefore = git(project, "rev-parse", repo.integrationBranch).trim();
    assert.ok((await callTool(ws, "write_file", { path: "NOTES.md", content: "notes\n" })).ok);
    assert.ok((await callTool(ws, "commit", { message: "notes" })).ok);
    const out = await callTool(ws, "merge_progress", {});
    assert.ok(out.ok, JSON.stringify(out));
    assert.equal(out.result.status, "refused", JSON.stringify(out.result));
    const v = "verification" in out.result ? out.result.verification : undefined;
    assert.equal(v?.status, "could-not-run");
    assert.match(out.result.message, /tests could not run: exit 127/);
    assert.match(out.result.message, /swarmboard-no-such-runner: not found/, "the command's output is quoted");
    assert.equal(git(project, "rev-parse", repo.integrationBranch).trim(), integrationBefore, "it did not move");
  });
});
