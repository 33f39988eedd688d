// Whether a role changes code, read from its tools: a role with any tool that writes the tree, runs a command in
// it, commits or merges is a writer and gets a worktree of its own when it first claims or writes; every other
// role (researchers, the synthesist, a router) only reads, through the swarm's one shared read-only view.
import { binaryUnitNames, scaleBytes } from "./byteUnits";

/** The tools that change a worktree or need one of the agent's own (a command may write anywhere in its tree). */
export const writingTools: ReadonlySet<string> = new Set([
  "write_file",
  "edit_file",
  "run_command",
  "commit",
  "merge_progress",
]);

export type WorkspaceAccess = "reader" | "writer";

export function workspaceAccessOf(toolNames: Iterable<string>): WorkspaceAccess {
  for (const name of toolNames) if (writingTools.has(name)) return "writer";
  return "reader";
}

/**
 * The disk a swarm's checkouts take: the shared read view (one checkout) plus one per writing agent (when every
 * one of them claims or writes).
 * `checkoutBytes` is the size of the files at the integration commit.
 */
export function swarmDiskEstimate(checkoutBytes: number, writers: number): { bytes: number; checkouts: number } {
  const checkouts = 1 + Math.max(0, writers);
  return { bytes: checkoutBytes * checkouts, checkouts };
}

/** The launch line's words: "up to 36.0 MiB of worktrees (3 checkout(s) of 12.0 MiB: the shared read view and 2 ...)". */
export function describeSwarmDisk(checkoutBytes: number, writers: number): string {
  const { bytes, checkouts } = swarmDiskEstimate(checkoutBytes, writers);
  const size = (n: number) => {
    const { value, unit } = scaleBytes(n);
    return `${unit === 0 ? value : value.toFixed(1)} ${binaryUnitNames[unit]}`;
  };
  const who = writers === 1 ? "1 writing agent" : `${writers} writing agents`;
  return `up to ${size(bytes)} of worktrees (${checkouts} checkout(s) of ${size(checkoutBytes)}: the shared read view and ${who})`;
}
