// The pure parts of sparse worktrees: what a cone holds (git's cone mode: the root's files, everything under a cone
// folder, the files directly in a folder on the way to one), which folder a read or write outside brings in, the
// folder a glob starts from, and when a repository is large enough for sparse writers.
import assert from "node:assert/strict";
import { DEFAULT_SPARSE_ABOVE_MIB, sparseWorktrees } from "../../../src/core/sparsePolicy";
import { coneHolds, folderToHold, globFolder } from "../../../src/workspace/sparseCheckout";

describe("workspace: sparse cones (pure)", () => {
  const cone = ["pkg/p03", "tools"];

  it("holds the root's files, everything under a cone folder and the files on the way to one", () => {
    assert.equal(coneHolds(cone, "package.json"), true);
    assert.equal(coneHolds(cone, "pkg/p03/f.txt"), true);
    assert.equal(coneHolds(cone, "pkg/p03/deep/er/f.txt"), true);
    assert.equal(coneHolds(cone, "pkg/README.md"), true, "a file directly in a parent of a cone folder");
    assert.equal(coneHolds(cone, "pkg/p04/f.txt"), false);
    assert.equal(coneHolds(cone, "pkg/p033/f.txt"), false, "a folder whose name only starts like one");
    assert.equal(coneHolds(cone, "docs/a.md"), false);
  });

  it("brings in the file's folder, or the folder itself, and nothing when the cone holds it", () => {
    assert.equal(folderToHold(cone, "pkg/p04/f.txt", false), "pkg/p04");
    assert.equal(folderToHold(cone, "new/deep/f.txt", false), "new/deep");
    assert.equal(folderToHold(cone, "pkg/p03/x/f.txt", false), "");
    assert.equal(folderToHold(cone, "top.txt", false), "");
    assert.equal(folderToHold(cone, "pkg/p05", true), "pkg/p05");
    assert.equal(folderToHold(cone, "tools/bin", true), "");
  });

  it("starts a glob at the folders before its first wildcard", () => {
    assert.equal(globFolder("src/**/*.ts"), "src");
    assert.equal(globFolder("src/lib/*.ts"), "src/lib");
    assert.equal(globFolder("**/*.ts"), "");
    assert.equal(globFolder("*.md"), "");
    assert.equal(globFolder("./a/{b,c}/x.ts"), "a");
  });

  it("makes writers sparse above the threshold only (128 MiB by default; 0 means always)", () => {
    const MiB = 1024 * 1024;
    assert.equal(DEFAULT_SPARSE_ABOVE_MIB, 128);
    assert.equal(sparseWorktrees(100 * MiB), false);
    assert.equal(sparseWorktrees(128 * MiB), false);
    assert.equal(sparseWorktrees(129 * MiB), true);
    assert.equal(sparseWorktrees(1, 0), true);
    assert.equal(sparseWorktrees(0, 0), false, "an empty repository has nothing to leave out");
  });
});
