// Reading another agent's branch, for its reviewer: the branch's head, its diff against the integration branch
// (what a merge would bring: the changes since the two parted), and a file at a commit. Read-only git on the
// swarm's repository (never the reviewer's or the author's worktree), so a review does not disturb either.
import { agentBranch, checkId } from "./branchNames";
import { GitCommandError, runGit } from "./gitExec";
import { capText } from "./outputCap";
import { refSha } from "./repoFacts";
import type { SwarmRepository } from "./swarmRepository";

const MAX_DIFF_CHARS = 24_000;
const MAX_FILE_CHARS = 24_000;

export interface PeerBranchView {
  readonly branch: string;
  readonly head: string;
  readonly integration: string;
  readonly files: readonly string[];
  readonly diff: string;
  readonly truncated: boolean;
}

/** The head of `agent`'s branch, or null when it has none (it never made a worktree). */
export function peerHead(repo: SwarmRepository, agent: string): Promise<string | null> {
  return refSha(repo.topLevel, `refs/heads/${agentBranch(repo.swarm, checkId("agent", agent))}`);
}

/** Throws what the reviewer reads when `agent` has no branch. */
export async function requirePeerHead(repo: SwarmRepository, agent: string): Promise<string> {
  const head = await peerHead(repo, agent);
  if (head === null)
    throw new Error(`${agent} has no branch in this swarm (it has not written or committed anything yet).`);
  return head;
}

/** The branch's changes since it left the integration branch, at its head now. */
export async function viewPeerBranch(repo: SwarmRepository, agent: string): Promise<PeerBranchView> {
  const head = await requirePeerHead(repo, agent);
  const integration = await refSha(repo.topLevel, `refs/heads/${repo.integrationBranch}`);
  if (integration === null) throw new Error(`the integration branch ${repo.integrationBranch} is missing.`);
  const range = `${integration}...${head}`;
  const names = await runGit(repo.topLevel, ["diff", "--name-only", "-z", range]);
  const diff = await runGit(repo.topLevel, ["diff", "--no-color", "--no-ext-diff", range]);
  const capped = capText(diff.stdout, MAX_DIFF_CHARS);
  return {
    branch: agentBranch(repo.swarm, agent),
    head,
    integration,
    files: names.stdout.split("\0").filter(Boolean),
    diff: capped.text,
    truncated: capped.truncated,
  };
}

/** A file of the branch at `sha` (a commit of that branch). */
export async function readPeerFile(
  repo: SwarmRepository,
  sha: string,
  relPath: string,
): Promise<{ path: string; sha: string; content: string; truncated: boolean }> {
  try {
    const out = await runGit(repo.topLevel, ["show", `${sha}:${relPath}`]);
    const capped = capText(out.stdout, MAX_FILE_CHARS);
    return { path: relPath, sha, content: capped.text, truncated: capped.truncated };
  } catch (err) {
    if (err instanceof GitCommandError)
      throw new Error(`${relPath} is not a file at ${sha.slice(0, 10)} (see the files review_branch lists).`);
    throw err;
  }
}
