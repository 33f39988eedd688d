// Done-when: 16 agents committing and merging concurrently, 25 commits each, finish with 0 failures and a clean
// `git fsck`. Each agent merges its progress after every 5th commit, so 80 merges race through the repository's
// one queue while the other agents commit. (Merging after every commit, 400 merges, also passes: 70 s on
// 2 busy cores: SWARMBOARD_MERGE_EVERY=1.) The run time is printed, not asserted: speed lives in bench/.
import assert from "node:assert/strict";
import { callTool } from "./callTool";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { cleanRepo, git, removeDir, tempDir } from "./gitFixture";

const AGENTS = 16;
const COMMITS = 25;
/**
 * Each agent merges after every MERGE_EVERY-th commit (and its last): 80 merges racing through the queue.
 * SWARMBOARD_MERGE_EVERY=1 makes it merge after every commit (400 merges), for a longer stress run.
 */
const MERGE_EVERY = Number(process.env.SWARMBOARD_MERGE_EVERY ?? 5);

describe("workspace: concurrent agents", function () {
  this.timeout(600_000);
  let repoDir = "";
  let stateDir = "";
  before(() => {
    repoDir = cleanRepo();
    stateDir = tempDir("state");
  });
  after(() => {
    removeDir(repoDir);
    removeDir(stateDir);
  });

  it(`${AGENTS} agents x ${COMMITS} commits with merges, finish with 0 failures and a clean fsck`, async () => {
    const t0 = Date.now();
    const repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: "load" });
    await repo.start({ includeUncommitted: false });
    const policy = new CommandPolicy({ allow: [], ask: [], deny: [] });
    const ids = Array.from({ length: AGENTS }, (_, i) => `agent-${i}`);
    const agents = await Promise.all(ids.map((id) => AgentWorkspace.open(repo, id, { policy })));
    const failures: string[] = [];
    let merges = 0;
    await Promise.all(
      agents.map(async (ws) => {
        for (let n = 0; n < COMMITS; n++) {
          const steps: Array<[string, unknown]> = [
            [
              "write_file",
              { path: `work/${ws.worktree.agent}/file-${n}.txt`, content: `${ws.worktree.agent} commit ${n}\n` },
            ],
            ["commit", { message: `${ws.worktree.agent}: commit ${n}` }],
          ];
          if ((n + 1) % MERGE_EVERY === 0 || n === COMMITS - 1) steps.push(["merge_progress", {}]);
          for (const [tool, args] of steps) {
            const out = await callTool(ws, tool, args);
            if (!out.ok) failures.push(`${ws.worktree.agent} ${tool}: ${out.error.message}`);
            else if (tool === "merge_progress") {
              const status = (out.result as { status: string }).status;
              if (status === "merged") merges++;
              else failures.push(`${ws.worktree.agent} merge: ${status}`);
            }
          }
        }
      }),
    );
    const seconds = (Date.now() - t0) / 1000;
    console.log(
      `      ${AGENTS} agents x ${COMMITS} commits, a merge every ${MERGE_EVERY}: ${seconds.toFixed(1)} s wall, ${merges} merges`,
    );
    assert.deepEqual(failures, []);
    assert.equal(merges, AGENTS * Math.ceil(COMMITS / MERGE_EVERY));
    const files = git(repoDir, "ls-tree", "-r", "--name-only", repo.integrationBranch)
      .split("\n")
      .filter((f) => f.startsWith("work/"));
    assert.equal(files.length, AGENTS * COMMITS, "the integration branch holds every agent's every file");
    const fsck = git(repoDir, "fsck", "--full", "--strict", "--no-progress", "--no-dangling");
    assert.equal(fsck.trim(), "", "git fsck reports nothing");
  });
});
