// The repository queue: exclusive operations run alone and in order, shared ones overlap only each other; and
// a git lock held by someone else (VS Code's git view, the user's own git) is retried a bounded number of times.
import assert from "node:assert/strict";
import { callTool } from "./callTool";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { GitQueue } from "../../../src/workspace/gitQueue";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { cleanRepo, removeDir, tempDir } from "./gitFixture";

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("workspace: git queue", function () {
  this.timeout(60_000);

  it("runs exclusive operations alone, shared ones together, first come first served", async () => {
    const q = new GitQueue("/repo");
    const log: string[] = [];
    let running = 0;
    let maxShared = 0;
    const op = (name: string, exclusive: boolean) => async () => {
      running++;
      if (exclusive) assert.equal(running, 1, `${name} ran alongside another operation`);
      maxShared = Math.max(maxShared, running);
      log.push(`start ${name}`);
      await tick(10);
      log.push(`end ${name}`);
      running--;
    };
    await Promise.all([
      q.runShared(op("s1", false)),
      q.runShared(op("s2", false)),
      q.run(op("x1", true)),
      q.runShared(op("s3", false)),
      q.run(op("x2", true)),
    ]);
    assert.equal(maxShared, 2, "s1 and s2 overlapped");
    assert.deepEqual(log.slice(4), ["start x1", "end x1", "start s3", "end s3", "start x2", "end x2"]);
    assert.equal(q.pending, 0);
  });

  it("keeps going after a failed operation", async () => {
    const q = new GitQueue("/repo");
    await assert.rejects(
      q.run(async () => {
        throw new Error("boom");
      }),
      /boom/,
    );
    assert.equal(await q.run(async () => 7), 7);
  });

  describe("with a real repository", () => {
    let repoDir = "";
    let stateDir = "";
    let ws: AgentWorkspace;
    before(async () => {
      repoDir = cleanRepo();
      stateDir = tempDir("state");
      const repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: "q" });
      await repo.start({ includeUncommitted: false });
      ws = await AgentWorkspace.open(repo, "a1", { policy: new CommandPolicy({ allow: [], ask: [], deny: [] }) });
    });
    after(() => {
      removeDir(repoDir);
      removeDir(stateDir);
    });

    it("retries while someone else holds index.lock, and succeeds once it is released", async () => {
      const lock = path.join(ws.worktree.gitDir, "index.lock");
      await callTool(ws, "write_file", { path: "a.txt", content: "a\n" });
      writeFileSync(lock, "");
      setTimeout(() => rmSync(lock), 150);
      const out = await callTool(ws, "commit", { message: "after the lock" });
      assert.ok(out.ok && out.result.committed, JSON.stringify(out));
    });

    it("gives up after bounded retries with a message naming the lock", async () => {
      const lock = path.join(ws.worktree.gitDir, "index.lock");
      await callTool(ws, "write_file", { path: "b.txt", content: "b\n" });
      writeFileSync(lock, "");
      try {
        const out = await callTool(ws, "commit", { message: "never" });
        assert.ok(!out.ok, "commit should fail while the lock is held");
        assert.equal(out.error.code, "git-failed");
        assert.match(out.error.message, /index\.lock/);
      } finally {
        rmSync(lock);
      }
    });
  });
});
