// Past swarms of a repository, served to the host: the list (from the registry, measured by git), the resume of
// an interrupted swarm (its saved inputs, the same path as the CLI's --resume) and its clean-up (dry run first).
import { HandlerError } from "../core/rpc/rpcPeer";
import type { CleanUpPlan } from "../protocol/swarmHistoryRpc";
import { cleanUpSwarm, planCleanUp } from "../workspace/swarmCleanUpPlan";
import { listPastSwarms, outcomeOf } from "../workspace/swarmHistory";
import { SwarmRegistry } from "../workspace/swarmRegistry";
import { SwarmRepository } from "../workspace/swarmRepository";
import type { SwarmRecord } from "../protocol/swarmRecord";

async function recordOf(workspace: string, swarmId: string): Promise<{ registry: SwarmRegistry; record: SwarmRecord }> {
  const registry = await SwarmRegistry.forRepository(workspace);
  const record = await registry.get(swarmId);
  if (record === undefined)
    throw new HandlerError(
      "unknown-swarm",
      `There is no swarm ${swarmId} in the registry of ${registry.topLevel}; list the repository's swarms to see their ids.`,
    );
  return { registry, record };
}

export async function listSwarms(workspace: string) {
  return listPastSwarms(await SwarmRegistry.forRepository(workspace));
}

/** The record of a swarm that may be resumed now: interrupted (or ended), and run by no live process. */
export async function resumableRecord(workspace: string, swarmId: string): Promise<SwarmRecord> {
  const { record } = await recordOf(workspace, swarmId);
  if (outcomeOf(record).outcome === "running")
    throw new HandlerError("swarm-running", `Swarm ${swarmId} is still running (${outcomeOf(record).reason}).`);
  return record;
}

export async function cleanUp(
  workspace: string,
  swarmId: string,
  confirm: { unmerged: string[]; uncommitted: string[] } | undefined,
): Promise<{ plan: CleanUpPlan; removed?: { worktrees: string[]; branches: string[] } }> {
  const { registry, record } = await recordOf(workspace, swarmId);
  if (outcomeOf(record).outcome === "running")
    throw new HandlerError(
      "swarm-running",
      `Swarm ${swarmId} is still running (${outcomeOf(record).reason}): stop it before cleaning it up.`,
    );
  const repo = await SwarmRepository.open({ repoPath: workspace, stateDir: record.stateDir, swarm: swarmId });
  if (confirm === undefined) return { plan: await planCleanUp(repo, record.baseSha) };
  const done = await cleanUpSwarm(repo, confirm, record.baseSha);
  await registry.update(swarmId, (r) => ({ ...r, cleanedUpAt: Date.now() }));
  return done;
}
