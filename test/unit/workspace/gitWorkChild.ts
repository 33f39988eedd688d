// A child process that does a swarm's git work without end (agents writing, committing, merging), so that a
// test can kill it with SIGKILL in the middle and check what it left behind. Usage:
//   node gitWorkChild.js <repo> <stateDir> <swarm>
// Prints "op <n>" after each finished operation.
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { callTool } from "./callTool";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { recoverSwarm } from "../../../src/workspace/swarmCleanup";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";

async function main(): Promise<void> {
  const [repoPath, stateDir, swarm] = process.argv.slice(2);
  if (!repoPath || !stateDir || !swarm) throw new Error("usage: gitWorkChild <repo> <stateDir> <swarm>");
  const repo = await SwarmRepository.open({ repoPath, stateDir, swarm });
  // A previous run of this script may have been killed: clear its locks and abandon a merge it left half done.
  await recoverSwarm(repo);
  await repo.start({ includeUncommitted: true });
  const policy = new CommandPolicy({ allow: [], ask: [], deny: [] });
  const agents = await Promise.all(["a1", "a2", "a3", "a4"].map((a) => AgentWorkspace.open(repo, a, { policy })));
  for (const ws of agents) {
    const status = await callTool(ws, "git_status", {});
    if (status.ok && status.result.merging) await callTool(ws, "merge_progress", { abort: true });
  }
  let op = 0;
  await Promise.all(
    agents.map(async (ws, i) => {
      for (let n = Date.now(); ; n++) {
        const steps: Array<[string, unknown]> = [
          ["write_file", { path: `work/${ws.worktree.agent}/f${n}.txt`, content: `agent ${i} step ${n}\n`.repeat(50) }],
          ["commit", { message: `agent ${i} step ${n}` }],
          ["merge_progress", {}],
        ];
        for (const [tool, args] of steps) {
          const out = await callTool(ws, tool, args);
          if (!out.ok) throw new Error(`${tool} failed: ${out.error.message}`);
          process.stdout.write(`op ${++op}\n`);
        }
      }
    }),
  );
}

main().catch((err) => {
  process.stderr.write(`gitWorkChild: ${(err as Error).stack}\n`);
  process.exit(1);
});
