// Past swarms of a repository, served to the host: the list (from the registry, measured by git), the resume of
// an interrupted swarm (its saved inputs, the same path as the CLI's --resume) and its clean-up (dry run first).
import { HandlerError } from "../core/rpc/rpcPeer";
import type { CleanUpPlan } from "../protocol/swarmHistoryRpc";
import { pastSwarmEvents } from "./pastSwarmEvents";
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

/** A recorded swarm's events (trace, up to `traceBytes` if given, and board) for a window that did not run it. */
export async function recordedEvents(workspace: string, swarmId: string, traceBytes?: number) {
  const { record } = await recordOf(workspace, swarmId);
  return pastSwarmEvents(swarmId, record.stateDir, traceBytes);
}

/** Why a recorded swarm cannot be resumed now (a live process runs it, or it was cleaned up), or undefined. */
export function resumeRefusal(record: SwarmRecord): string | undefined {
  const { outcome, reason } = outcomeOf(record);
  if (outcome === "running") return `Swarm ${record.swarmId} is still running (${reason}).`;
  if (record.cleanedUpAt !== undefined)
    return (
      `Swarm ${record.swarmId} was cleaned up on ${new Date(record.cleanedUpAt).toISOString()}: its branches and ` +
      "worktrees are gone, so it cannot be resumed. Start a new swarm with the same goal instead."
    );
  return undefined;
}

/** The record of a swarm that may be resumed now: interrupted (or ended), run by no live process, not cleaned up. */
export async function resumableRecord(workspace: string, swarmId: string): Promise<SwarmRecord> {
  const { record } = await recordOf(workspace, swarmId);
  const refusal = resumeRefusal(record);
  if (refusal !== undefined) throw new HandlerError("not-resumable", refusal);
  return record;
}

/** The same check for a state dir's swarm (the CLI's resume); a run from before the registry has no record. */
export async function resumeRefusalOf(workspace: string, swarmId: string): Promise<string | undefined> {
  const record = await (await SwarmRegistry.forRepository(workspace)).get(swarmId);
  return record === undefined ? undefined : resumeRefusal(record);
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
