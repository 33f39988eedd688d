// Memories and git: the blob of each file a memory is about at a commit, and whether a memory still holds at a
// commit (every one of its files has the blob it had when it was remembered).
import type { JudgedMemory, Memory } from "../protocol/memory";
import { gitText } from "./gitExec";

/** The blob id of each of `paths` that is a file at `commit` (paths that are not there are absent from the map). */
export async function blobsAt(
  topLevel: string,
  commit: string,
  paths: readonly string[],
): Promise<Map<string, string>> {
  const blobs = new Map<string, string>();
  const wanted = new Set(paths);
  if (wanted.size === 0) return blobs;
  // `ls-tree -r` with the paths as pathspecs: one git call for all of them; a folder's files are listed too,
  // so only exact matches are kept.
  const out = await gitText(topLevel, [
    "--literal-pathspecs",
    "ls-tree",
    "-r",
    "-z",
    "--full-tree",
    commit,
    "--",
    ...wanted,
  ]);
  for (const record of out.split("\0")) {
    const tab = record.indexOf("\t");
    if (tab < 0) continue;
    const [, type, blob] = record.slice(0, tab).split(" ");
    const file = record.slice(tab + 1);
    if (type === "blob" && wanted.has(file)) blobs.set(file, blob);
  }
  return blobs;
}

/** Each memory judged at `commit`: stale when any of its files has another blob there, or is gone. */
export async function judgeMemories(
  topLevel: string,
  commit: string,
  memories: readonly Memory[],
): Promise<JudgedMemory[]> {
  const now = await blobsAt(
    topLevel,
    commit,
    memories.flatMap((m) => m.files.map((f) => f.path)),
  );
  return memories.map((memory) => {
    const changed = memory.files.filter((f) => now.get(f.path) !== f.blob).map((f) => f.path);
    return { memory, status: changed.length === 0 ? "valid" : "stale", changed };
  });
}
