// The git tools of an agent: status, diff and commit in its own worktree. Commit goes through the repository's
// queue, never commits a protected path (a file an agent created under .vscode/ by a command, say) nor the
// links to the user's installed dependencies (dependencyFolders.ts), nor a hard link to one of the user's secret
// files (secretLinks.ts: the agent's command may have made one the file tools refuse), and concludes a merge left in conflict once the agent has resolved it.
import { lstat, readFile } from "node:fs/promises";
import path from "node:path";
import type { ToolArgs, ToolResult } from "../protocol/tools";
import { gitText, runGit } from "./gitExec";
import { withLockRetry, type GitQueue } from "./gitQueue";
import { PathRefusedError, protectedBy, resolveInWorktree, type ContainmentRules } from "./pathContainment";
import { changedPaths, isMerging, mergeHeadExists } from "./repoFacts";
import { capText } from "./outputCap";
import type { GitIdentity } from "./gitExec";
import { ToolFailure } from "./fileTools";
import { excludeLinkSpecs, isDependencyLink } from "./dependencyFolders";
import { secretFileIds, secretLinkReason } from "./secretLinks";

const MAX_STATUS_FILES = 300;

export async function gitStatusTool(rules: ContainmentRules): Promise<ToolResult<"git_status">> {
  const out = (await runGit(rules.root, ["status", "--porcelain=v1", "-z", "-uall", "--no-renames"])).stdout;
  const files = out
    .split("\0")
    .filter((s) => s.length > 3)
    .map((s) => ({ index: s[0], worktree: s[1], path: s.slice(3) }))
    .filter((f) => !isDependencyLink(f.path, rules.dependencyLinks ?? []));
  return {
    files: files.slice(0, MAX_STATUS_FILES),
    merging: await isMerging(rules.root),
    truncated: files.length > MAX_STATUS_FILES,
  };
}

export async function gitDiffTool(
  rules: ContainmentRules,
  args: ToolArgs<"git_diff">,
  maxChars = 60_000,
): Promise<ToolResult<"git_diff">> {
  const specs: string[] = [];
  for (const p of args.paths) specs.push(`:(literal)${(await resolveInWorktree(p, "read", rules)).rel || "."}`);
  const flags = ["diff", "--no-ext-diff", "--no-textconv", "--no-color", ...(args.staged ? ["--cached"] : [])];
  const diff = await gitText(rules.root, [...flags, "--", ...specs]);
  const capped = capText(diff, maxChars);
  return { diff: capped.text, truncated: capped.truncated };
}

/** `git add` would mark a conflicted file resolved even with its markers still in: check for them first. */
async function refuseLeftoverMarkers(wt: string): Promise<void> {
  const unmerged = (await gitText(wt, ["diff", "--name-only", "-z", "--diff-filter=U"])).split("\0").filter(Boolean);
  const marked: string[] = [];
  for (const f of unmerged) {
    const text = await readFile(path.join(wt, f), "utf8").catch(() => "");
    if (/^(<{7}|>{7})( |$)/m.test(text)) marked.push(f);
  }
  if (marked.length > 0) {
    throw new ToolFailure(
      "invalid-args",
      `These files still have conflict markers (<<<<<<< or >>>>>>>): ${marked.join(", ")}. Resolve them, then commit.`,
    );
  }
}

/** `git add` would put a secret's bytes in history through a hard link: refuse any file that is one (secretLinks.ts). */
async function refuseSecretLinks(rules: ContainmentRules, changed: readonly string[]): Promise<void> {
  const candidates: string[] = [];
  for (const rel of changed) {
    const st = await lstat(path.join(rules.root, rel)).catch(() => null);
    if (st !== null && st.isFile() && st.nlink > 1) candidates.push(rel);
  }
  if (candidates.length === 0) return;
  // Read once for every file with other names (a pnpm store's links can be many).
  const scope = rules.secrets ?? {};
  const known = await secretFileIds(scope);
  const reasons: string[] = [];
  const linked: string[] = [];
  for (const rel of candidates) {
    const why = await secretLinkReason(path.join(rules.root, rel), rel, scope, known);
    if (why === undefined) continue;
    reasons.push(why);
    linked.push(rel);
  }
  if (reasons.length > 0) {
    throw new PathRefusedError(
      "protected-path",
      `Refusing to commit: ${reasons.join(" ")} Remove ${linked.join(", ")} (run_command rm), then commit again.`,
    );
  }
}

export async function commitTool(
  rules: ContainmentRules,
  gitDir: string,
  queue: GitQueue,
  identity: GitIdentity,
  args: ToolArgs<"commit">,
): Promise<ToolResult<"commit">> {
  // Shared: a commit touches only this worktree's index and this agent's branch.
  return queue.runShared(async () => {
    const wt = rules.root;
    const links = rules.dependencyLinks ?? [];
    const changed = (await changedPaths(wt)).filter((p) => !isDependencyLink(p, links));
    const merging = await mergeHeadExists(gitDir);
    if (changed.length === 0 && !merging)
      return { committed: false, sha: null, files: [], reason: "Nothing to commit: the worktree has no changes." };
    const blocked = changed.filter((p) => protectedBy(p, rules) !== undefined);
    if (blocked.length > 0) {
      throw new ToolFailure(
        "invalid-args",
        `Refusing to commit protected paths: ${blocked.slice(0, 10).join(", ")}. Agents may not change ${rules.protectedPaths.join(", ")}; delete or revert those files, then commit again.`,
      );
    }
    if (merging) await refuseLeftoverMarkers(wt);
    await refuseSecretLinks(rules, changed);
    const excludes = await excludeLinkSpecs(wt, links);
    await withLockRetry(() => runGit(wt, ["add", "-A", "--", ".", ...excludes]));
    await withLockRetry(() => runGit(wt, ["commit", "-q", "--no-verify", "-m", args.message], { identity }));
    const sha = await gitText(wt, ["rev-parse", "HEAD"]);
    return {
      committed: true,
      sha,
      files: changed.slice(0, MAX_STATUS_FILES),
      reason: merging ? "Committed and concluded the merge." : "Committed.",
    };
  });
}
