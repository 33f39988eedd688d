// What a swarm branch changes and a file's text at a ref, read from a real repository for the review.
import assert from "node:assert/strict";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { changedFilesOfBranch, fileAtRef } from "../../../src/workspace/branchFiles";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { cleanRepo, removeDir, tempDir } from "./gitFixture";

describe("workspace: a branch's files for the review", function () {
  this.timeout(60_000);
  let repoDir = "";
  let stateDir = "";
  let repo: SwarmRepository;

  before(async () => {
    repoDir = cleanRepo();
    stateDir = tempDir("state");
    repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: "bf" });
    await repo.start({ includeUncommitted: false });
    const ws = await AgentWorkspace.open(repo, "a1", { policy: new CommandPolicy({ allow: [], ask: [], deny: [] }) });
    await ws.writeFile({ path: "notes/new.txt", content: "new\n" });
    await ws.commit({ message: "a new file" });
  });
  after(() => {
    removeDir(repoDir);
    removeDir(stateDir);
  });

  it("lists the files an agent branch adds against the integration branch, and reads them at the branch", async () => {
    const branch = "swarmboard/bf/a1";
    const changed = await changedFilesOfBranch(repo, branch);
    assert.deepEqual(changed.files, [{ path: "notes/new.txt", status: "added" }]);
    assert.match(changed.base, /^[0-9a-f]{40}$/);
    assert.deepEqual(await fileAtRef(repo, branch, "notes/new.txt"), {
      exists: true,
      content: "new\n",
      truncated: false,
    });
    assert.deepEqual(await fileAtRef(repo, repo.integrationBranch, "notes/new.txt"), {
      exists: false,
      content: "",
      truncated: false,
    });
  });

  it("refuses a branch of another swarm and a path that leaves the repository", async () => {
    await assert.rejects(changedFilesOfBranch(repo, "main"), /is not a branch of swarm bf/);
    await assert.rejects(fileAtRef(repo, "swarmboard/bf/a1", "../etc/passwd"), /name a file inside the repository/);
  });
});
