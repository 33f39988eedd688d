// The review tools as an agent calls them (through the catalogue: parse, run, meaning), on a real repository and a
// real board, without a test command: under review an author's merge_progress only brings the integration
// branch in and publishes nothing; a busy reviewer is not asked; a withdrawn approval leaves the branch
// unmergeable until it is approved again; the integrator then merges.
import assert from "node:assert/strict";
import { MemoryBoardStore } from "../../../src/core/boardStore";
import { SwarmBoard } from "../../../src/core/swarmBoard";
import { findTool, toolNamesForRecipes, type CatalogTool } from "../../../src/worker/agent/toolCatalog";
import { integrateTool } from "../../../src/worker/agent/tools/integrateTool";
import { reviewTools, type ReviewToolContext } from "../../../src/worker/agent/tools/reviewTools";
import { workspaceTools } from "../../../src/worker/agent/tools/workspaceTools";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { cleanRepo, git, removeDir, tempDir } from "../workspace/gitFixture";

const policy = new CommandPolicy({ allow: [], ask: [], deny: [] });
const tools: readonly CatalogTool<ReviewToolContext>[] = [...reviewTools, integrateTool, ...workspaceTools];

describe("worker: the review tools on a real repository and board", function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  async function call(ctx: ReviewToolContext, tool: string, args: unknown) {
    const found = findTool(tools, tool);
    if ("error" in found) throw new Error(found.error);
    return found.tool.call(ctx, args);
  }

  it("are in the catalogue a recipe may list", () => {
    for (const name of ["request_review", "review_branch", "approve_branch", "withdraw_approval", "integrate_branch"])
      assert.ok(toolNamesForRecipes().has(name), name);
  });

  it("refuse the author's merge and a busy reviewer; a withdrawn approval blocks the integrator until approved again", async () => {
    const dir = cleanRepo();
    const stateDir = tempDir("review-state");
    dirs.push(dir, stateDir);
    const repo = await SwarmRepository.open({ repoPath: dir, stateDir, swarm: "rv" });
    await repo.start({ includeUncommitted: false });
    const board = new SwarmBoard({ store: new MemoryBoardStore(), visibility: "shared", leaseMs: 60_000 });
    const ctx = async (agent: string): Promise<ReviewToolContext> => {
      board.join(agent);
      const workspace = await AgentWorkspace.open(repo, agent, { policy, reviewApprovals: 1 });
      return { agent, board, workspace, now: () => 1_000 };
    };
    const [a1, a2, a3] = [await ctx("a1"), await ctx("a2"), await ctx("a3")];
    await ctx("a4");
    assert.ok((await call(a1, "write_file", { path: "NOTES.md", content: "notes\n" })).ok);
    assert.ok((await call(a1, "commit", { message: "notes" })).ok);
    // The integration branch moves (an agent of no review merges), so a1's merge_progress has something to bring in.
    const outside = await AgentWorkspace.open(repo, "a0", { policy });
    const a0: ReviewToolContext = { agent: "a0", board, workspace: outside, now: () => 1_000 };
    assert.ok((await call(a0, "write_file", { path: "README.md", content: "readme\n" })).ok);
    assert.ok((await call(a0, "commit", { message: "readme" })).ok);
    assert.equal((await call(a0, "merge_progress", {})).summary, "merge: merged");
    const moved = git(dir, "rev-parse", repo.integrationBranch).trim();
    const merge = await call(a1, "merge_progress", {});
    assert.match(
      merge.error ?? "",
      /needs 1 approval\(s\) from other agents before a merge, and its integrator merges/,
    );
    const head1 = git(dir, "rev-parse", "swarmboard/rv/a1").trim();
    assert.ok((merge.error ?? "").includes(`is merged into your branch (now at ${head1.slice(0, 10)})`), merge.error);
    assert.equal(git(dir, "rev-parse", `${head1}^2`).trim(), moved, "the integration branch came into a1's branch");
    assert.equal(git(dir, "rev-parse", repo.integrationBranch).trim(), moved, "and did not move");

    assert.ok((await board.claim("a4", { paths: ["src/app.ts"] }, "the answer", 900)).granted);
    const busy = await call(a1, "request_review", { reviewer: "a4" });
    assert.equal(busy.ok, false);
    assert.match(busy.error ?? "", /a4 is busy \(it holds claim a4-1: the answer\)/);
    assert.ok((await call(a1, "request_review", { reviewer: "a2", note: "notes" })).ok);
    const waited = await call(a2, "wait_for_review", { timeoutMs: 10 });
    assert.match(waited.summary, /^review: review-requested$/);

    const view = await call(a2, "review_branch", { agent: "a1" });
    assert.match(view.summary, /^review_branch a1 at [0-9a-f]{10}: 1 files$/);
    const file = await call(a2, "read_peer_file", { agent: "a1", path: "NOTES.md" });
    assert.equal((file.result as { content: string }).content, "notes\n");
    assert.ok((await call(a2, "approve_branch", { agent: "a1" })).ok);
    const withdrawn = await call(a2, "withdraw_approval", { agent: "a1" });
    assert.match(
      withdrawn.summary,
      /^a2 withdrew its approval of a1's branch at [0-9a-f]{10} \(a1 [0-9a-f]{10}: not reviewed\)$/,
    );
    const before = git(dir, "rev-parse", repo.integrationBranch).trim();
    const lacking = await call(a3, "integrate_branch", { agent: "a1" });
    assert.match(lacking.error ?? "", /^Not merged: a1's branch at [0-9a-f]{10} has 0 of the 1 approvals it needs/);
    assert.equal(git(dir, "rev-parse", repo.integrationBranch).trim(), before);

    assert.ok((await call(a2, "approve_branch", { agent: "a1" })).ok);
    const merged = await call(a3, "integrate_branch", { agent: "a1" });
    assert.equal(merged.summary, "integrate a1: merged", merged.error);
    assert.equal(
      git(dir, "rev-parse", repo.integrationBranch).trim(),
      git(dir, "rev-parse", "swarmboard/rv/a1").trim(),
    );
    const notice = await call(a1, "wait_for_review", { timeoutMs: 10 });
    assert.match(notice.summary, /^review: approved, withdrawn, approved, merged$/);
  });
});
