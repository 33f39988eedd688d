// The integrator's merge of an approved commit (src/workspace/integrateBranch.ts) on a real mocha project with
// the sandboxed `npm test`: a branch behind a moved integration branch is merged with a two-parent commit and
// verified; a commit that breaks a test that passed on the integration branch is refused; a conflict is refused
// naming the file. The integration branch moves only for the first.
import assert from "node:assert/strict";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { probeBubblewrap } from "../../../src/workspace/bubblewrap";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { detectDependencyFolders } from "../../../src/workspace/dependencyFolders";
import { integrateApproved } from "../../../src/workspace/integrateBranch";
import { MergeVerifier } from "../../../src/workspace/mergeVerifier";
import { peerHead, viewPeerBranch } from "../../../src/workspace/peerBranch";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { callTool } from "./callTool";
import { git, removeDir, tempDir } from "./gitFixture";
import { makeMochaProject, mathSource } from "./mochaProject";

describe("workspace: the integrator merges an approved commit, verified", function () {
  this.timeout(180_000);
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  async function setUp(swarm: string) {
    const project = makeMochaProject();
    const stateDir = tempDir(`${swarm}-state`);
    dirs.push(project, stateDir);
    const repo = await SwarmRepository.open({ repoPath: project, stateDir, swarm });
    await repo.start({ includeUncommitted: false });
    const policy = new CommandPolicy({ allow: ["npm test"], ask: [], deny: [] });
    const sandbox = await probeBubblewrap();
    assert.ok(sandbox.usable, `bubblewrap is needed for this test: ${sandbox.usable ? "" : sandbox.reason}`);
    const dependencies = await detectDependencyFolders(repo.topLevel, repo.commonDir, []);
    const verifier = new MergeVerifier(repo, { testCommand: "npm test", policy, sandbox, dependencies });
    /** An agent whose one commit writes `files`; its branch head. */
    const commitAs = async (agent: string, files: Record<string, string>) => {
      const ws = await AgentWorkspace.open(repo, agent, { policy, sandbox, dependencies });
      for (const [p, content] of Object.entries(files))
        assert.ok((await callTool(ws, "write_file", { path: p, content })).ok);
      assert.ok((await callTool(ws, "commit", { message: `${agent}'s change` })).ok);
      return ws;
    };
    const integration = () => git(project, "rev-parse", repo.integrationBranch).trim();
    return { repo, verifier, commitAs, integration };
  }

  it("merges a branch the integration branch moved past with a two-parent commit, after its tests pass", async () => {
    const { repo, verifier, commitAs, integration } = await setUp("int-merge");
    await commitAs("a1", { "NOTES.md": "notes\n" });
    const other = await commitAs("a2", { "README.md": "readme\n" });
    assert.equal((await callTool(other, "merge_progress", {})).ok, true);
    const moved = integration();
    const approved = (await peerHead(repo, "a1"))!;
    const view = await viewPeerBranch(repo, "a1");
    assert.deepEqual(view.files, ["NOTES.md"], "the diff is against where the branches parted");
    assert.match(view.diff, /\+notes/);
    const result = await integrateApproved(repo, { author: "a1", approved, integrator: "a3", verifier });
    assert.equal(result.status, "merged", JSON.stringify(result));
    const now = integration();
    assert.notEqual(now, moved);
    const parents = git(repo.topLevel, "rev-list", "--parents", "-n", "1", now).trim().split(" ").slice(1);
    assert.deepEqual(parents, [moved, approved]);
    assert.match(result.message, /at [0-9a-f]{10} into .*, verified \("npm test": 1 passed, 2 failed/);
  });

  it("refuses a commit that breaks a test that passed on the integration branch, and one that conflicts", async () => {
    const { repo, verifier, commitAs, integration } = await setUp("int-refuse");
    const before = integration();
    const broken = mathSource.replace("(a, b) => a + b;\nexports.mul", "(a, b) => a - b;\nexports.mul");
    await commitAs("a1", { "src/math.js": broken });
    const refused = await integrateApproved(repo, {
      author: "a1",
      approved: (await peerHead(repo, "a1"))!,
      integrator: "a3",
      verifier,
    });
    assert.equal(refused.status, "refused");
    assert.match(
      refused.message,
      /^Not merged: "npm test": .*these passed on the integration branch and fail now: math adds/,
    );
    assert.match(refused.message, /Ask a1 to fix it \(request_changes\); its new head then needs approval again\.$/);
    assert.equal(integration(), before);

    await commitAs("a2", { "src/math.js": "exports.add = 1;\n" });
    const other = await commitAs("a4", { "src/math.js": "exports.add = 2;\n" });
    assert.equal((await callTool(other, "merge_progress", {})).ok, true);
    const movedTo = integration();
    const conflict = await integrateApproved(repo, {
      author: "a2",
      approved: (await peerHead(repo, "a2"))!,
      integrator: "a3",
      verifier,
    });
    assert.equal(conflict.status, "refused");
    assert.match(conflict.message, /conflicts with swarmboard\/int-refuse\/main in src\/math\.js\. Ask a2 to bring/);
    assert.equal(integration(), movedTo);
  });
});
