// Claims that bind: a write, edit or merge may not touch a file inside another agent's live claim. A claim is
// checked by its paths and globs only; a claim that names only a task has no file scope, so it binds nothing
// here (its text is the scope, and the claim rule already keeps two agents off the same task). Files nobody
// claimed stay open to everyone. Pure: the caller passes the live leases and how to read a claim's text.
import type { Lease } from "./claims";
import { escapeGlob } from "./globs";
import { normalizePath, scopesOverlap } from "./scopes";

/** One file the agent may not touch, and the claim that holds it. */
export interface ClaimedPath {
  readonly path: string;
  readonly holder: Lease;
  /** The words the holder claimed it with ("" when unknown). */
  readonly claimText: string;
}

export interface ClaimedPathsQuery {
  /** The agent that wants to write. */
  readonly agent: string;
  /** Workspace-relative paths it would change. */
  readonly paths: readonly string[];
  /** Live leases (released or expired ones must not be passed). */
  readonly leases: readonly Lease[];
  /** An agent's family head: a sub-agent works under its parent's claims (default: the agent itself). */
  readonly familyOf?: (agent: string) => string;
  readonly claimText?: (claimId: string) => string | undefined;
}

function hasFileScope(lease: Lease): boolean {
  return lease.scope.paths.length > 0 || lease.scope.globs.length > 0;
}

/** The paths inside another family's live file claim, each with the first such claim, in the order given. */
export function pathsClaimedByOthers(query: ClaimedPathsQuery): ClaimedPath[] {
  const family = query.familyOf ?? ((a: string) => a);
  const mine = family(query.agent);
  const foreign = query.leases.filter((l) => family(l.agent) !== mine && hasFileScope(l));
  const out: ClaimedPath[] = [];
  const seen = new Set<string>();
  for (const raw of query.paths) {
    const path = normalizePath(raw)
      .split("/")
      .filter((s) => s !== ".")
      .join("/");
    if (seen.has(path)) continue;
    seen.add(path);
    // The path as an exact glob: a file named `src` is not "everything under src/".
    const probe = { paths: [], globs: [escapeGlob(path)] };
    const holder = foreign.find((l) => scopesOverlap(probe, l.scope).overlap);
    if (holder !== undefined) out.push({ path, holder, claimText: query.claimText?.(holder.claimId) ?? "" });
  }
  return out;
}

function claimLabel(c: ClaimedPath): string {
  return c.claimText === "" ? `claim ${c.holder.claimId}` : `claim ${c.holder.claimId}: ${c.claimText}`;
}

function whatToDo(blocked: readonly ClaimedPath[]): string {
  const owners = [...new Set(blocked.map((c) => c.holder.agent))];
  const ask = owners.map((o) => `send_message ${o}`).join(" or ");
  return `claim another task, or ${ask} to ask ${owners.length > 1 ? "them" : "it"} to release`;
}

/** What a refused write or edit tells the agent: the file, its owner and claim, and what to do instead. */
export function writeRefusal(tool: string, blocked: readonly ClaimedPath[]): string {
  const first = blocked[0];
  if (first === undefined) throw new Error("writeRefusal needs at least one claimed path.");
  return (
    `Refused: ${tool} ${first.path}: ${first.path} is claimed by ${first.holder.agent} (${claimLabel(first)}); ` +
    `${whatToDo(blocked)}.`
  );
}

/** What a refused merge tells the agent: every file of its branch inside another's claim, with the owners. */
export function mergeRefusal(blocked: readonly ClaimedPath[]): string {
  if (blocked.length === 0) throw new Error("mergeRefusal needs at least one claimed path.");
  const shown = blocked.slice(0, 10).map((c) => `${c.path} (claimed by ${c.holder.agent}, ${claimLabel(c)})`);
  const more = blocked.length > 10 ? ` and ${blocked.length - 10} more` : "";
  return (
    `Not merged: your branch changes files inside another agent's claim: ${shown.join("; ")}${more}. ` +
    `Revert them in a new commit and merge the rest, or ${whatToDo(blocked)}.`
  );
}
