// What a repository protects from its agents, worked out once per swarm: the default protected names plus the
// repository's own hooks paths inside the tree (e.g. `.husky`), and the one command policy built from them.
import path from "node:path";
import { CommandPolicy, type PolicyRules } from "./commandPolicy";
import { runGit } from "./gitExec";
import { DEFAULT_PROTECTED } from "./pathContainment";

export interface ProtectedRepository {
  readonly topLevel: string;
  readonly commonDir: string;
}

/**
 * The repository's own hooks paths when they point inside the tree (e.g. `.husky`): protected like `.git`.
 * Read per config file, because our own `-c core.hooksPath=/dev/null` would hide the value from a plain get.
 */
export async function hooksPathsInTree(repo: ProtectedRepository): Promise<string[]> {
  const found: string[] = [];
  // The three reads at once: a launch waits on them (one after the other they took ~0.2 s).
  const scopes = await Promise.all(
    ["--local", "--global", "--system"].map((scope) =>
      runGit(repo.topLevel, ["config", scope, "--get-all", "core.hooksPath"], { okExitCodes: [1] }),
    ),
  );
  for (const out of scopes) {
    for (const value of out.stdout.split("\n").map((v) => v.trim())) {
      if (value === "" || path.isAbsolute(value) || value.startsWith("~")) continue;
      found.push(path.posix.normalize(value).replace(/\/+$/, ""));
    }
  }
  return found;
}

/** Worktree-relative paths no agent may write: the defaults and the hooks paths. */
export async function repositoryProtectedPaths(repo: ProtectedRepository): Promise<string[]> {
  return [...DEFAULT_PROTECTED, ...(await hooksPathsInTree(repo))];
}

/**
 * The swarm's one command policy: the user's rules, the repository's protected paths (read here unless the caller
 * has them already), its checkout and git dir.
 */
export async function swarmCommandPolicy(
  repo: ProtectedRepository,
  rules: PolicyRules,
  protectedPaths?: readonly string[],
): Promise<CommandPolicy> {
  return new CommandPolicy(rules, {
    protectedPaths: protectedPaths ?? (await repositoryProtectedPaths(repo)),
    repository: { topLevel: repo.topLevel, commonDir: repo.commonDir },
  });
}
