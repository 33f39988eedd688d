// Where claims bind: the one check every changing workspace tool passes before it runs (write_file, edit_file,
// merge_progress). The rule is src/core/claimedPaths.ts; this reads the live claims off the swarm's board and
// turns a refusal into the tool error the agent reads, naming the owner.
import { pathsClaimedByOthers, type ClaimedPath } from "../../../core/claimedPaths";
import type { SwarmBoard } from "../../../core/swarmBoard";
import { ClaimedPathRefusal } from "../../../workspace/toolErrors";

/** The agent's place on the board (absent in tests of the workspace alone: then nothing is checked). */
export interface ClaimBindingContext {
  readonly board?: SwarmBoard;
  readonly agent?: string;
  readonly now?: () => number;
}

/** Throws a ClaimedPathRefusal when any path lies inside another agent's live (unreleased, unexpired) claim. */
export function refuseClaimedPaths(
  ctx: ClaimBindingContext,
  paths: readonly string[],
  refusal: (blocked: readonly ClaimedPath[]) => string,
): void {
  const { board, agent } = ctx;
  if (board === undefined || agent === undefined || paths.length === 0) return;
  const blocked = pathsClaimedByOthers({
    agent,
    paths,
    leases: board.claims.active((ctx.now ?? Date.now)()),
    familyOf: (a) => board.padOf(a),
    claimText: (id) => board.board.get(id)?.text,
  });
  if (blocked.length > 0) throw new ClaimedPathRefusal(refusal(blocked));
}
