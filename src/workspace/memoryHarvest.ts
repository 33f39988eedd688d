// What a swarm leaves to the repository's memory when it ends: its verified findings, with provenance.
// - A FACT is checked by the agent that posts it (the charter's meaning of the kind); it is kept when it names a
//   file (refs or scope paths), with the files' blobs at the swarm's start commit: what the agents read. A fact
//   about a file the swarm itself changed is then stale once that change is in the user's branch, which is the
//   safe side: it was checked against one version and is not offered for another. A file the swarm created (not
//   at the start) is left out of a fact's files.
// - A PATCH_SUMMARY is kept only when the swarm verified merges with the recipe's test command (merge_progress
//   refuses a merge that breaks a test) and its author's branch landed on the integration branch. Its files are
//   its refs and scope paths, or else the files the author's branch changed; their blobs are taken at the
//   integration branch's end, so it holds once the user has merged that change and not edited the files since.
// Findings of the swarm itself (author "swarmboard"), of the user and of the host are not remembered.
import { createHash } from "node:crypto";
import type { BoardEntry } from "../protocol/board";
import type { Memory, MemoryFile } from "../protocol/memory";
import { agentBranch } from "./branchNames";
import { gitText } from "./gitExec";
import { blobsAt } from "./memoryBlobs";
import { isAncestor, refSha } from "./repoFacts";

const notAgents = new Set(["swarmboard", "user", "host"]);
/**
 * merge_progress's own summary of a refused merge (src/worker/agent/tools/workspaceTools.ts) is not a change that
 * landed.
 */
const refusedMerge = /^refused to merge /;

export interface SwarmHarvest {
  readonly topLevel: string;
  readonly swarmId: string;
  readonly goal: string;
  readonly entries: readonly BoardEntry[];
  /** The integration branch's commit when the swarm started. */
  readonly startCommit: string;
  /** The integration branch's commit now, at the swarm's end. */
  readonly endCommit: string;
  /** Whether merges were verified by a test command. */
  readonly verifiedMerges: boolean;
  readonly now: number;
}

export function memoryId(swarmId: string, entryId: string): string {
  return `m-${createHash("sha256").update(`${swarmId}\0${entryId}`).digest("hex").slice(0, 12)}`;
}

function namedPaths(entry: BoardEntry): string[] {
  return [...new Set([...entry.refs.map((r) => r.path), ...entry.scope.paths])];
}

async function filesAt(topLevel: string, commit: string, paths: readonly string[]): Promise<MemoryFile[]> {
  const blobs = await blobsAt(topLevel, commit, paths);
  return paths.flatMap((p) => {
    const blob = blobs.get(p);
    return blob === undefined ? [] : [{ path: p, blob }];
  });
}

/** The files a landed patch is about, with the commit they are judged at; undefined when it did not land. */
async function patchFiles(h: SwarmHarvest, entry: BoardEntry): Promise<MemoryFile[] | undefined> {
  if (!h.verifiedMerges || refusedMerge.test(entry.text)) return undefined;
  let branch: string;
  try {
    branch = agentBranch(h.swarmId, entry.author);
  } catch {
    return undefined; // an author that cannot have a branch (a sub-agent writes on its parent's)
  }
  const branchSha = await refSha(h.topLevel, `refs/heads/${branch}`);
  if (branchSha === null || branchSha === h.startCommit) return undefined;
  if (!(await isAncestor(h.topLevel, branchSha, h.endCommit))) return undefined;
  const named = namedPaths(entry);
  const paths =
    named.length > 0
      ? named
      : (await gitText(h.topLevel, ["diff", "--name-only", "-z", h.startCommit, branchSha]))
          .split("\0")
          .filter(Boolean);
  return filesAt(h.topLevel, h.endCommit, paths);
}

/** The swarm's findings worth remembering, each with its files at the commit that makes it true. */
export async function harvestMemories(h: SwarmHarvest): Promise<Memory[]> {
  const memories: Memory[] = [];
  for (const entry of h.entries) {
    if (notAgents.has(entry.author)) continue;
    let files: MemoryFile[] | undefined;
    let commit = h.startCommit;
    if (entry.kind === "FACT") files = await filesAt(h.topLevel, h.startCommit, namedPaths(entry));
    else if (entry.kind === "PATCH_SUMMARY") {
      files = await patchFiles(h, entry);
      commit = h.endCommit;
    }
    if (files === undefined || files.length === 0) continue;
    memories.push({
      id: memoryId(h.swarmId, entry.id),
      kind: entry.kind === "FACT" ? "FACT" : "PATCH_SUMMARY",
      text: entry.text,
      refs: entry.refs,
      files,
      swarmId: h.swarmId,
      goal: h.goal,
      agent: entry.author,
      entryId: entry.id,
      postedAt: entry.time,
      commit,
      rememberedAt: h.now,
    });
  }
  return memories;
}
