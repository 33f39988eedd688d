// Which roles only read (one shared view) and which write (a worktree each, when they first claim or write),
// read from their tools, and the launch's disk estimate.
import assert from "node:assert/strict";
import { builtinRecipeInputs } from "../../../src/core/builtinRecipes";
import { describeSwarmDisk, swarmDiskEstimate, workspaceAccessOf } from "../../../src/core/workspaceAccess";

describe("core: workspace access by role", () => {
  it("reads the built-in recipes: researchers and synthesists read, workers, fixers and sweepers write", () => {
    const access = Object.fromEntries(
      Object.values(builtinRecipeInputs).flatMap((r) =>
        r.roles.map((role) => [`${r.name}/${role.name}`, workspaceAccessOf(role.tools)]),
      ),
    );
    assert.deepEqual(access, {
      "research/researcher": "reader",
      "research/synthesist": "reader",
      "organization/worker": "writer",
      "organization/synthesist": "reader",
      "fix-failing-tests/fixer": "writer",
      "todo-sweep/sweeper": "writer",
    });
  });

  it("any one tool that writes, commits, merges or runs a command makes a writer", () => {
    for (const tool of ["write_file", "edit_file", "run_command", "commit", "merge_progress"])
      assert.equal(workspaceAccessOf(["read_file", tool]), "writer", tool);
    assert.equal(workspaceAccessOf(["read_file", "search", "git_status", "git_diff", "claim"]), "reader");
    assert.equal(workspaceAccessOf([]), "reader");
  });

  it("estimates the shared view plus one checkout per writer, and says so", () => {
    assert.deepEqual(swarmDiskEstimate(1000, 0), { bytes: 1000, checkouts: 1 });
    assert.deepEqual(swarmDiskEstimate(1000, 4), { bytes: 5000, checkouts: 5 });
    assert.equal(
      describeSwarmDisk(12 * 1024 * 1024, 2),
      "up to 36.0 MiB of worktrees (3 checkout(s) of 12.0 MiB: the shared read view and 2 writing agents)",
    );
    assert.match(describeSwarmDisk(512, 1), /^up to 1.0 KiB .*1 writing agent\)$/);
  });
});
