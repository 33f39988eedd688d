// Cleanup that never loses work, explicit discard, and recovery after a crash.
// - cleanup: a worktree with uncommitted changes (or a merge in progress) is kept as it is; a clean one is
//   removed (its commits live on its branch); an agent branch is deleted only when the integration branch
//   contains it; unmerged branches and the integration branch are kept for the user to review.
// - discard: the user's explicit choice; removes the swarm's worktrees and all its branches, merged or not.
// - recover: after the owning process was killed, removes lock files it left in places only Swarmboard
//   uses (its worktrees' admin dirs and its own refs), never the user's index or refs.
import { readdir, rm, stat, unlink } from "node:fs/promises";
import path from "node:path";
import type { CleanupReport } from "../protocol/userReview";
import { runGit } from "./gitExec";
import { withLockRetry } from "./gitQueue";
import { changedPaths, currentBranch, isAncestor, isMerging, listWorktrees, refSha } from "./repoFacts";
import type { SwarmRepository } from "./swarmRepository";
import { agentBranch, swarmRefPrefix } from "./branchNames";
import { findReadView } from "./sharedReadView";
import { ownDependencyLinks } from "./dependencyFolders";

/**
 * Removes the swarm's shared read view (sharedReadView.ts): it holds no work (nothing writes there, the links to
 * dependency folders are its only untracked files), so it goes with --force. Returns its path, or null.
 */
export async function removeReadView(repo: SwarmRepository): Promise<string | null> {
  const view = await findReadView(repo);
  if (view === undefined) return null;
  const args = view.prunable ? ["worktree", "prune"] : ["worktree", "remove", "--force", view.path];
  await withLockRetry(() => runGit(repo.topLevel, args));
  return view.path;
}

/**
 * The uncommitted changes in an agent's worktree that are an agent's work: everything git reports but the
 * worktree's own links to the checkout's dependency folders (dependencyFolders.ts), which hold none.
 */
export async function agentWork(worktree: string, repo: Pick<SwarmRepository, "topLevel">): Promise<string[]> {
  const changed = await changedPaths(worktree);
  const links = new Set(await ownDependencyLinks(worktree, repo.topLevel, changed));
  return changed.filter((p) => !links.has(p));
}

export async function cleanupSwarm(repo: SwarmRepository): Promise<CleanupReport> {
  return repo.queue.run(async () => {
    const report: CleanupReport = { removedWorktrees: [], keptWorktrees: [], deletedBranches: [], keptBranches: [] };
    const integration = await refSha(repo.topLevel, `refs/heads/${repo.integrationBranch}`);
    const view = await removeReadView(repo);
    if (view !== null) report.removedWorktrees.push(view);
    for (const wt of await repo.agentWorktrees()) {
      if (wt.prunable) {
        await withLockRetry(() => runGit(repo.topLevel, ["worktree", "prune"]));
        report.removedWorktrees.push(wt.path);
      } else if ((await isMerging(wt.path)) || (await agentWork(wt.path, repo)).length > 0) {
        report.keptWorktrees.push({ path: wt.path, reason: "uncommitted changes or a merge in progress" });
        continue;
      } else {
        // Its own links to the dependency folders are its only untracked files: they go first (the links only).
        const links = await ownDependencyLinks(wt.path, repo.topLevel, await changedPaths(wt.path));
        for (const link of links) await unlink(path.join(wt.path, link.replace(/\/+$/, "")));
        // No --force: git itself refuses a worktree with untracked or modified files, a second guard.
        await withLockRetry(() => runGit(repo.topLevel, ["worktree", "remove", wt.path]));
        report.removedWorktrees.push(wt.path);
      }
    }
    const checkedOut = new Set((await listWorktrees(repo.topLevel)).map((w) => w.branch));
    for (const branch of await repo.branches()) {
      if (branch === repo.integrationBranch) continue;
      const sha = await refSha(repo.topLevel, `refs/heads/${branch}`);
      if (!sha) continue;
      if (checkedOut.has(`refs/heads/${branch}`)) {
        report.keptBranches.push({ branch, reason: "its worktree was kept" });
      } else if (integration && (await isAncestor(repo.topLevel, sha, integration))) {
        await withLockRetry(() => runGit(repo.topLevel, ["update-ref", "-d", `refs/heads/${branch}`, sha]));
        report.deletedBranches.push(branch);
      } else {
        report.keptBranches.push({ branch, reason: `not merged into ${repo.integrationBranch}` });
      }
    }
    return report;
  });
}

/** Removes every worktree and branch of the swarm, merged or not: only on the user's explicit request. */
export async function discardSwarm(
  repo: SwarmRepository,
): Promise<{ removedWorktrees: string[]; deletedBranches: string[] }> {
  return repo.queue.run(async () => {
    const current = await currentBranch(repo.topLevel);
    if (current && `refs/heads/${current}`.startsWith(swarmRefPrefix(repo.swarm))) {
      throw new Error(
        `Your checkout is on ${current}, a branch of this swarm: switch to another branch before discarding the swarm.`,
      );
    }
    const removedWorktrees: string[] = [];
    const view = await removeReadView(repo);
    if (view !== null) removedWorktrees.push(view);
    for (const wt of await repo.agentWorktrees()) {
      await withLockRetry(() =>
        runGit(repo.topLevel, ["worktree", "remove", "--force", "--force", wt.path]).catch(async (err) => {
          if (!wt.prunable) throw err;
        }),
      );
      removedWorktrees.push(wt.path);
    }
    await withLockRetry(() => runGit(repo.topLevel, ["worktree", "prune"]));
    const deletedBranches: string[] = [];
    for (const branch of await repo.branches()) {
      const sha = await refSha(repo.topLevel, `refs/heads/${branch}`);
      if (!sha) continue;
      await withLockRetry(() => runGit(repo.topLevel, ["update-ref", "-d", `refs/heads/${branch}`, sha]));
      deletedBranches.push(branch);
    }
    await rm(repo.worktreeRoot, { recursive: true, force: true });
    return { removedWorktrees, deletedBranches };
  });
}

/** Removes one agent's worktree and branch, merged or not: only on the user's explicit request. */
export async function discardAgent(
  repo: SwarmRepository,
  agent: string,
): Promise<{ removedWorktree: string | null; deletedBranch: string | null }> {
  const branch = agentBranch(repo.swarm, agent);
  return repo.queue.run(async () => {
    if ((await currentBranch(repo.topLevel)) === branch) {
      throw new Error(`Your checkout is on ${branch}: switch to another branch before discarding it.`);
    }
    const wt = (await repo.agentWorktrees()).find((w) => w.branch === branch);
    if (wt) {
      if (wt.prunable) await withLockRetry(() => runGit(repo.topLevel, ["worktree", "prune"]));
      else await withLockRetry(() => runGit(repo.topLevel, ["worktree", "remove", "--force", "--force", wt.path]));
    }
    const sha = await refSha(repo.topLevel, `refs/heads/${branch}`);
    if (sha) await withLockRetry(() => runGit(repo.topLevel, ["update-ref", "-d", `refs/heads/${branch}`, sha]));
    return { removedWorktree: wt?.path ?? null, deletedBranch: sha ? branch : null };
  });
}

async function lockFilesIn(dir: string): Promise<string[]> {
  const found: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) found.push(...(await lockFilesIn(full)));
    else if (e.name.endsWith(".lock")) found.push(full);
  }
  return found;
}

/**
 * After a crash of the process that owned the swarm: deletes lock files left in the swarm's own worktree admin
 * dirs and refs. Call it from the new owner before any other operation of the swarm; it refuses while this
 * process itself has git work of the repository queued.
 */
export async function recoverSwarm(repo: SwarmRepository): Promise<string[]> {
  if (repo.queue.pending > 0)
    throw new Error(
      "recoverSwarm was called while git work of this repository is running; call it before starting the swarm's agents.",
    );
  return repo.queue.run(async () => {
    const candidates: string[] = [];
    // The shared read view too: a checkout killed midway leaves its index.lock, which would stop every read.
    const view = await findReadView(repo);
    const trees = [...(await repo.agentWorktrees()), ...(view && !view.prunable ? [view] : [])];
    for (const wt of trees) {
      const gitFile = path.join(wt.path, ".git");
      const isFile = await stat(gitFile).then(
        (s) => s.isFile(),
        () => false,
      );
      if (!isFile) continue;
      const adminDir = (await runGit(wt.path, ["rev-parse", "--absolute-git-dir"])).stdout.trim();
      candidates.push(...(await lockFilesIn(adminDir)).filter((f) => path.dirname(f) === adminDir));
    }
    const refDir = path.join(repo.commonDir, swarmRefPrefix(repo.swarm));
    const logDir = path.join(repo.commonDir, "logs", swarmRefPrefix(repo.swarm));
    candidates.push(...(await lockFilesIn(refDir)), ...(await lockFilesIn(logDir)));
    for (const f of candidates) await unlink(f).catch(() => undefined);
    return candidates;
  });
}
