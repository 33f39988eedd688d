// An agent paused by a full KV pool: it waits for cells another agent frees (src/worker/swarm/cellWaiters.ts).
// When no agent left could free any, it is told to give back its own: it compacts (re-forked from the trunk, its
// state in a brief it has read), or, when that would free nothing worth it, it fails with the numbers.
import type { LoopInput } from "../../protocol/agentLoop";
import { isKvFull } from "./agentCalls";
import type { AgentRunnerDeps } from "./agentRunnerDeps";

/** How the pause ended: cells came, the agent compacted (and read its brief), or it had to end. */
export type CellPauseEnd = "resumed" | "compacted" | "ended";

type Apply = (inputs: readonly LoopInput[], reason?: string) => void;

export async function pauseForCells(
  deps: Pick<AgentRunnerDeps, "waitForCells" | "compaction" | "privateCells">,
  apply: Apply,
  reason: string,
  usage: { steps: number; tokens: number },
): Promise<CellPauseEnd> {
  apply(["pause"], reason);
  const word = await deps.waitForCells();
  const compacted = word === "give-back" && (await giveBackCells(deps, usage));
  if (word === "give-back" && !compacted) {
    apply(
      ["fail"],
      `kv-full: the KV pool stayed full with every agent paused or waiting on its sub-agents, and this agent's ` +
        `${deps.privateCells()} cells were too few to compact; raise swarmboard.kvCellsBudget (or the recipe's ` +
        `budgets.kvCells), run fewer agents, or spawn fewer sub-agents at once`,
    );
    return "ended";
  }
  apply(["resume"]);
  return compacted ? "compacted" : "resumed";
}

/** Compacts to free the agent's cells for the others (false: it holds too few for that to help). */
async function giveBackCells(
  deps: Pick<AgentRunnerDeps, "compaction">,
  usage: { steps: number; tokens: number },
): Promise<boolean> {
  const { compaction } = deps;
  if (compaction === undefined || !compaction.worthGivingBack()) return false;
  try {
    await compaction.compact(usage);
    return true;
  } catch (error) {
    if (isKvFull(error)) return false;
    throw error;
  }
}
