// New swarm ids: the recipe's name, the launch time and a random tail, checked against every swarm the
// repository knows (registry records and `swarmboard/<id>/` branches), so that a new swarm never reuses an older
// one's branches or worktrees, even when it has a fresh state dir.
import { randomBytes } from "node:crypto";
import { BRANCH_ROOT, checkId } from "./branchNames";
import { gitText } from "./gitExec";
import type { SwarmRegistry } from "./swarmRegistry";

/** Longest recipe part of an id: leaves room for the time and the tail within the 63 characters of an id. */
const maxNamePart = 32;

function slug(recipeName: string): string {
  const s = recipeName
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, maxNamePart)
    .replace(/-+$/, "");
  return s === "" ? "swarm" : s;
}

/** `organization-20261201-070112-k3f9`: readable, sorted by time, unique with the random tail. */
export function candidateSwarmId(recipeName: string, now: Date, random: string): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, "")
    .replace(/[-:]/g, "")
    .replace("T", "-");
  return checkId("swarm", `${slug(recipeName)}-${stamp}-${random}`);
}

async function branchesExist(topLevel: string, swarmId: string): Promise<boolean> {
  const refs = await gitText(topLevel, [
    "for-each-ref",
    "--count=1",
    "--format=%(refname)",
    `refs/heads/${BRANCH_ROOT}/${swarmId}/`,
  ]);
  return refs !== "";
}

/** A swarm id no record and no branch of this repository uses. */
export async function newSwarmId(
  recipeName: string,
  registry: SwarmRegistry,
  now = new Date(),
  randomTail: () => string = () => randomBytes(2).toString("hex"),
): Promise<string> {
  for (let attempt = 0; attempt < 16; attempt++) {
    const id = candidateSwarmId(recipeName, now, randomTail());
    if ((await registry.get(id)) === undefined && !(await branchesExist(registry.topLevel, id))) return id;
  }
  throw new Error(
    `Could not find an unused swarm id in ${registry.topLevel} after 16 tries; check ${registry.dir} and the swarmboard/ branches.`,
  );
}
