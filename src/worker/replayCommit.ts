// Whether a replay starts where its recorded run did. A replay forces the calls, not what they read: on another
// commit the same calls meet other files and end elsewhere. The commit a run started from is its registry record's
// baseSha, in the repository the run was launched on.
import { headCommit } from "../workspace/repoFacts";
import { SwarmRegistry } from "../workspace/swarmRegistry";

export type ReplayCommit =
  | { readonly state: "same" }
  /** The run's record is gone (or its repository): the replay goes on at HEAD, with a warning. */
  | { readonly state: "unknown"; readonly warning: string }
  | { readonly state: "moved"; readonly problem: string };

async function recordedBase(workspace: string, swarmId: string): Promise<string | undefined> {
  try {
    return (await (await SwarmRegistry.forRepository(workspace)).get(swarmId))?.baseSha;
  } catch {
    return undefined;
  }
}

/** `workspace`: where the replay runs; `recorded`: the run's own workspace and id (its saved settings). */
export async function replayCommit(
  workspace: string,
  recorded: { readonly workspace: string; readonly swarmId: string },
): Promise<ReplayCommit> {
  const base = await recordedBase(recorded.workspace, recorded.swarmId);
  if (base === undefined)
    return {
      state: "unknown",
      warning:
        `the commit swarm ${recorded.swarmId} started from is unknown (no registry record in ` +
        `${recorded.workspace}); replaying on ${workspace}'s HEAD.`,
    };
  const head = await headCommit(workspace);
  if (head === base) return { state: "same" };
  return {
    state: "moved",
    problem:
      `${workspace} is at ${head.slice(0, 12)}, but swarm ${recorded.swarmId} started from ${base.slice(0, 12)}: ` +
      `check out ${base} (or clone the repository at it) so the replayed calls read the same files.`,
  };
}
