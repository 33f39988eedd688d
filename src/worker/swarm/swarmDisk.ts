// What a swarm's worktrees will take on disk, said at launch: one checkout of the integration commit for the
// shared read view, plus one per agent whose role may write (each makes its worktree when it first claims or
// writes, an agent that never does costs none; sub-agents share their parent's, a takeover agent adds one).
// Above the recipe's sparse threshold (src/core/sparsePolicy.ts) a writer's worktree is a sparse checkout: the
// launch says what the writers start with and what that saves.
import { DEFAULT_SPARSE_ABOVE_MIB, describeSparseDisk, sparseWorktrees } from "../../core/sparsePolicy";
import { describeSwarmDisk, swarmDiskEstimate } from "../../core/workspaceAccess";
import { checkoutBytes, rootFileBytes } from "../../workspace/sharedReadView";
import type { SwarmRepository } from "../../workspace/swarmRepository";
import { writingSeats, type SeatPlan } from "./seatPlan";

export interface SwarmDisk {
  readonly checkoutBytes: number;
  readonly writers: number;
  readonly estimateBytes: number;
  readonly text: string;
  /** Writers' worktrees are sparse checkouts (the repository is above the threshold). */
  readonly sparse: boolean;
}

/**
 * The estimate from the integration commit's size and the number of agents that may write; `sparseAboveMiB` is the
 * recipe's threshold (absent: the default).
 */
export async function estimateDisk(repo: SwarmRepository, plan: SeatPlan, sparseAboveMiB?: number): Promise<SwarmDisk> {
  const sha = await repo.branchSha(repo.integrationBranch);
  const bytes = sha === null ? 0 : await checkoutBytes(repo, sha);
  const writers = writingSeats(plan);
  const above = sparseAboveMiB ?? DEFAULT_SPARSE_ABOVE_MIB;
  const sparse = sha !== null && sparseWorktrees(bytes, above);
  const full = describeSwarmDisk(bytes, writers);
  const text = sparse ? `${full}; ${describeSparseDisk(bytes, await rootFileBytes(repo, sha), writers, above)}` : full;
  return { checkoutBytes: bytes, writers, estimateBytes: swarmDiskEstimate(bytes, writers).bytes, text, sparse };
}
