// When writers' worktrees are sparse, and what the launch says about it. Sparse pays on large repositories only:
// below the threshold a full checkout per writer takes about a second and a few hundred MiB for a whole swarm, and
// the agents' commands (builds, tests, linters) see every file unchanged; above it, full checkouts dominate the
// swarm's disk and start-up (the 2 GB monorepo: 32 GB and minutes for 16 writers) while a writer touches a
// few folders. 128 MiB: a repository like llama.cpp's source (3,600 files, about 175 MB) is above it, a typical
// application repository (tens of MiB) below.
import { binaryUnitNames, scaleBytes } from "./byteUnits";
import { swarmDiskEstimate } from "./workspaceAccess";

/** The default threshold, in MiB of one checkout (recipe `budgets.sparseCheckoutAboveMiB` overrides it). */
export const DEFAULT_SPARSE_ABOVE_MIB = 128;

/** Whether writers get sparse worktrees: one checkout takes more than the threshold (0: always). */
export function sparseWorktrees(checkoutBytes: number, aboveMiB = DEFAULT_SPARSE_ABOVE_MIB): boolean {
  return checkoutBytes > aboveMiB * 1024 * 1024;
}

function size(n: number): string {
  const { value, unit } = scaleBytes(n);
  return `${unit === 0 ? value : value.toFixed(1)} ${binaryUnitNames[unit]}`;
}

/**
 * The launch's words on sparse worktrees: what the writers start with (the root's files each) against the full
 * checkouts they would take otherwise, and the bound (a writer that reads and writes everywhere grows to a checkout).
 */
export function describeSparseDisk(
  checkoutBytes: number,
  rootBytes: number,
  writers: number,
  aboveMiB: number,
): string {
  const full = swarmDiskEstimate(checkoutBytes, writers).bytes;
  const start = checkoutBytes + rootBytes * writers;
  const who = writers === 1 ? "the writing agent starts" : `each of ${writers} writing agents starts`;
  return (
    `sparse worktrees (one checkout, ${size(checkoutBytes)}, is above ${aboveMiB} MiB): ${who} with the root's files ` +
    `(${size(rootBytes)}) and grows with what it claims, reads and writes; ${size(start)} at the start with the read ` +
    `view instead of ${size(full)} (saves ${size(full - start)}), at most ${size(full)}`
  );
}
