// Claims that bind the workspace tools, on a real repository and a real board: a write inside another agent's
// claim is refused and the file stays as it was; a merge whose branch changed claimed files is refused listing
// every one with its owner, the integration branch does not move, and it merges once the owners release.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { MemoryBoardStore } from "../../../src/core/boardStore";
import { SwarmBoard } from "../../../src/core/swarmBoard";
import { findTool } from "../../../src/worker/agent/toolCatalog";
import { workspaceTools, type WorkspaceToolContext } from "../../../src/worker/agent/tools/workspaceTools";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { cleanRepo, git, removeDir, tempDir } from "./gitFixture";

const policy = new CommandPolicy({ allow: [], ask: [], deny: [] });

describe("workspace: claims bind writes and merges", function () {
  this.timeout(120_000);
  let repoDir = "";
  let stateDir = "";
  let repo: SwarmRepository;
  let board: SwarmBoard;
  let a2: WorkspaceToolContext;

  async function call(ctx: WorkspaceToolContext, tool: string, args: unknown) {
    const found = findTool(workspaceTools, tool);
    if ("error" in found) throw new Error(found.error);
    return found.tool.call(ctx, args);
  }
  const integration = () => git(repoDir, "rev-parse", `refs/heads/${repo.integrationBranch}`).trim();

  before(async () => {
    repoDir = cleanRepo();
    stateDir = tempDir("state");
    repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: "bind" });
    await repo.start({ includeUncommitted: false });
    board = new SwarmBoard({ store: new MemoryBoardStore(), visibility: "shared", leaseMs: 60_000 });
    for (const agent of ["a1", "a2", "a3"]) board.join(agent);
    const workspace = await AgentWorkspace.open(repo, "a2", { policy });
    a2 = { workspace, board, agent: "a2", now: () => 1_000 };
  });
  after(() => {
    removeDir(repoDir);
    removeDir(stateDir);
  });

  it("refuses a2's merge of files a1 and a3 claimed after a2 changed them, naming both, and merges once released", async () => {
    // a2 changes three files before anyone claims them.
    for (const [file, content] of [
      ["src/app.ts", "export const answer = 43;\n"],
      ["src/lib.ts", "export const lib = 1;\n"],
      ["docs/notes.md", "notes\n"],
    ])
      assert.ok((await call(a2, "write_file", { path: file, content })).ok, file);
    assert.ok((await call(a2, "commit", { message: "a2: three files" })).ok);
    const a1Claim = await board.claim("a1", { paths: ["src/app.ts"] }, "the answer", 500);
    const a3Claim = await board.claim("a3", { globs: ["docs/**/*.md"] }, "docs", 500);
    assert.ok(a1Claim.granted && a3Claim.granted);
    const before = integration();

    const refused = await call(a2, "merge_progress", {});
    assert.equal(refused.ok, false);
    assert.equal(
      refused.error,
      "claimed: Not merged: your branch changes files inside another agent's claim: " +
        "docs/notes.md (claimed by a3, claim a3-1: docs); src/app.ts (claimed by a1, claim a1-1: the answer). " +
        "Revert them in a new commit and merge the rest, or claim another task, " +
        "or send_message a3 or send_message a1 to ask them to release.",
    );
    assert.equal(integration(), before, "the integration branch did not move");

    // An abort publishes nothing: not checked against claims.
    const abort = await call(a2, "merge_progress", { abort: true });
    assert.match(JSON.stringify(abort.result), /no merge in progress to abort/);

    await board.release(a1Claim.lease.claimId, "done", 900);
    const stillDocs = await call(a2, "merge_progress", {});
    assert.match(stillDocs.error ?? "", /: docs\/notes\.md \(claimed by a3, claim a3-1: docs\)\. Revert/);
    await board.release(a3Claim.lease.claimId, "done", 900);
    const merged = await call(a2, "merge_progress", {});
    assert.ok(merged.ok, merged.error);
    assert.equal((merged.result as { status: string }).status, "merged");
    assert.equal(git(repoDir, "show", `${repo.integrationBranch}:src/app.ts`), "export const answer = 43;\n");
  });

  it("refuses a write and an edit inside another's claim and leaves the file as it was", async () => {
    const claim = await board.claim("a1", { paths: ["src/"] }, "all of src", 950);
    assert.ok(claim.granted);
    const file = path.join(a2.workspace!.worktree.path, "src/lib.ts");
    const was = readFileSync(file, "utf8");
    const write = await call(a2, "write_file", { path: "src/lib.ts", content: "gone\n" });
    assert.equal(
      write.error,
      "claimed: Refused: write_file src/lib.ts: src/lib.ts is claimed by a1 (claim a1-3: all of src); " +
        "claim another task, or send_message a1 to ask it to release.",
    );
    const edit = await call(a2, "edit_file", { path: "./src/lib.ts", search: "lib = 1", replace: "lib = 2" });
    assert.match(edit.error ?? "", /^claimed: Refused: edit_file src\/lib\.ts: src\/lib\.ts is claimed by a1/);
    assert.equal(readFileSync(file, "utf8"), was);
    assert.ok((await call(a2, "write_file", { path: "README.md", content: "# mine\n" })).ok, "unclaimed: allowed");
  });
});
