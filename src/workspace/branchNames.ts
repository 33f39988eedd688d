// Branch names of a swarm: `swarmboard/<swarm>/main` for integration, `swarmboard/<swarm>/<agent>` per agent.
// Names are checked strictly here so that no id can smuggle `..`, a refspec or an option into a git argument.
const ID = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export const BRANCH_ROOT = "swarmboard";
export const INTEGRATION_NAME = "main";

/** Throws a clear error when `id` cannot be a swarm or agent id. */
export function checkId(kind: "swarm" | "agent", id: string): string {
  if (!ID.test(id)) {
    throw new Error(
      `Invalid ${kind} id ${JSON.stringify(id)}: use 1-63 lowercase letters, digits, '-' or '_', starting with a letter or digit.`,
    );
  }
  if (kind === "agent" && id === INTEGRATION_NAME) {
    throw new Error(`Invalid agent id "main": that name is the swarm's integration branch; pick another.`);
  }
  return id;
}

export function integrationBranch(swarm: string): string {
  return `${BRANCH_ROOT}/${checkId("swarm", swarm)}/${INTEGRATION_NAME}`;
}

export function agentBranch(swarm: string, agent: string): string {
  return `${BRANCH_ROOT}/${checkId("swarm", swarm)}/${checkId("agent", agent)}`;
}

/** The prefix shared by every branch of one swarm, as a full ref name. */
export function swarmRefPrefix(swarm: string): string {
  return `refs/heads/${BRANCH_ROOT}/${checkId("swarm", swarm)}/`;
}

/** The agent id of a branch of `swarm`, `null` for the integration branch, undefined for other branches. */
export function agentOfBranch(swarm: string, branch: string): string | null | undefined {
  const prefix = `${BRANCH_ROOT}/${swarm}/`;
  const short = branch.replace(/^refs\/heads\//, "");
  if (!short.startsWith(prefix)) return undefined;
  const rest = short.slice(prefix.length);
  return rest === INTEGRATION_NAME ? null : rest;
}
