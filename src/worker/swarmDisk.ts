// What a swarm's worktrees will take on disk, said at launch: one checkout of the integration commit for the
// shared read view, plus one per agent whose role may write (each makes its worktree when it first claims or
// writes, an agent that never does costs none; sub-agents share their parent's, a takeover agent adds one).
import { describeSwarmDisk, swarmDiskEstimate } from "../core/workspaceAccess";
import { checkoutBytes } from "../workspace/sharedReadView";
import type { SwarmRepository } from "../workspace/swarmRepository";
import { writingSeats, type SeatPlan } from "./seatPlan";

export interface SwarmDisk {
  readonly checkoutBytes: number;
  readonly writers: number;
  readonly estimateBytes: number;
  readonly text: string;
}

/** The estimate from the integration commit's size and the number of agents that may write. */
export async function estimateDisk(repo: SwarmRepository, plan: SeatPlan): Promise<SwarmDisk> {
  const sha = await repo.branchSha(repo.integrationBranch);
  const bytes = sha === null ? 0 : await checkoutBytes(repo, sha);
  const writers = writingSeats(plan);
  const text = describeSwarmDisk(bytes, writers);
  return { checkoutBytes: bytes, writers, estimateBytes: swarmDiskEstimate(bytes, writers).bytes, text };
}
