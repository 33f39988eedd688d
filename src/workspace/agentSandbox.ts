// The sandbox view of one agent's commands (see sandboxMounts.ts): its worktree writable, every protected name in
// it read-only (or absent and uncreatable), the repository's git dir read-only, and the user's checkout hidden
// but for its installed dependency folders, bound read-only where the worktree's links point (dependencyFolders.ts).
import path from "node:path";
import type { SandboxOptions } from "./sandboxMounts";

export interface SandboxedRepository {
  /** The user's checkout. */
  readonly topLevel: string;
  /** The repository's common git dir (objects, refs, the worktrees' own git dirs). */
  readonly commonDir: string;
}

export function agentSandboxOptions(
  repo: SandboxedRepository,
  worktree: string,
  protectedPaths: readonly string[],
  dependencySources: readonly string[] = [],
  dependencyLinks: readonly string[] = [],
): SandboxOptions {
  return {
    gitIgnored: dependencyLinks,
    gitDirs: [repo.commonDir],
    userCheckout: repo.topLevel,
    readOnlyBinds: dependencySources,
    readOnlyInside: protectedPaths.map((p) => path.join(worktree, p)),
  };
}
