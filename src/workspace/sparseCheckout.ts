// Sparse agent worktrees for large repositories: a writer's worktree holds the files at the repository's root
// (package.json, config files: what builds and tools look for first) plus the folders of what it claimed, in git's
// cone mode, and grows (`git sparse-checkout add`) when the agent reads or writes a file outside it. Files outside
// the cone are still in the index (skip-worktree), so commits, merges, diffs and review see the whole tree; only the
// disk and the checkout time shrink. The settings travel as `-c` on each command (sparseMarker.ts): git config is
// never written, the user's included.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Scope } from "../protocol/board";
import { gitText, runGit } from "./gitExec";
import { SPARSE_MARKER } from "./sparseMarker";

/** Cone patterns with no folder: the files at the root only (git's own form, so `sparse-checkout add` extends it). */
const ROOT_ONLY_PATTERNS = "/*\n!/*/\n";

/** A workspace-relative folder in git's spelling: forward slashes, no leading `./`, no trailing `/`. */
function cleanFolder(p: string): string {
  return p
    .replace(/\\/g, "/")
    .replace(/\/{2,}/g, "/")
    .replace(/^(\.\/)+/, "")
    .replace(/^\/+|\/+$/g, "");
}

function parentFolder(rel: string): string {
  const i = rel.lastIndexOf("/");
  return i < 0 ? "" : rel.slice(0, i);
}

const WILDCARD = /[*?[\]{}!]/;

/** The folders before the first wildcard of a glob (`src/**\/*.ts` -> `src`; `*.md` -> the root, no folder). */
export function globFolder(glob: string): string {
  const fixed: string[] = [];
  for (const part of cleanFolder(glob).split("/").slice(0, -1)) {
    if (WILDCARD.test(part)) break;
    fixed.push(part);
  }
  return fixed.join("/");
}

/** Whether `rel` names a folder (a tree) at `ref` in the repository at `cwd`. */
async function isTreeAt(cwd: string, ref: string, rel: string): Promise<boolean> {
  const out = await runGit(cwd, ["cat-file", "-t", `${ref}:${rel}`], { okExitCodes: [128] });
  return out.exitCode === 0 && out.stdout.trim() === "tree";
}

/**
 * The cone folders of a claimed scope at `ref`: a folder it names is taken whole, a file brings its folder, a glob
 * the folders before its first wildcard. A task id alone (or a glob from the root) adds none: the root's files only.
 */
export async function coneOfScope(cwd: string, ref: string, scope: Scope): Promise<string[]> {
  const folders = new Set<string>();
  // A glob without a wildcard names a path (a file or a folder) like `paths` does.
  const literal = scope.globs.filter((g) => !WILDCARD.test(g));
  for (const p of [...scope.paths, ...literal]) {
    const rel = cleanFolder(p);
    if (rel === "" || rel === ".") continue;
    folders.add((await isTreeAt(cwd, ref, rel)) ? rel : parentFolder(rel));
  }
  for (const g of scope.globs) if (WILDCARD.test(g)) folders.add(globFolder(g));
  folders.delete("");
  return [...folders].sort();
}

/**
 * Whether the cone of `folders` holds `rel` (a file): the root's files, everything under a cone folder, and the
 * files directly in a folder on the way to one (git's cone mode checks those out too).
 */
export function coneHolds(folders: readonly string[], rel: string): boolean {
  const dir = parentFolder(cleanFolder(rel));
  if (dir === "") return true;
  return folders.some((f) => dir === f || dir.startsWith(`${f}/`) || f.startsWith(`${dir}/`));
}

/**
 * Makes a worktree added with `--no-checkout` sparse and checks it out: the marker first (so every later command
 * carries the settings), the root-only patterns, the index and files from HEAD, then the cone's folders.
 */
export async function checkOutSparse(worktree: string, gitDir: string, folders: readonly string[]): Promise<void> {
  await mkdir(path.join(gitDir, "info"), { recursive: true });
  await writeFile(path.join(gitDir, "info", "sparse-checkout"), ROOT_ONLY_PATTERNS);
  await writeFile(path.join(gitDir, SPARSE_MARKER), "cone patterns in info/sparse-checkout; see sparseMarker.ts\n");
  await runGit(worktree, ["read-tree", "-mu", "HEAD"]);
  await widenSparse(worktree, folders);
}

/** The cone's folders now (`git sparse-checkout list`). */
export async function sparseFolders(worktree: string): Promise<string[]> {
  return (await gitText(worktree, ["sparse-checkout", "list"])).split("\n").filter(Boolean);
}

/** Adds folders to the cone (their files are checked out); returns those that were not in it yet. */
export async function widenSparse(worktree: string, folders: readonly string[]): Promise<string[]> {
  const have = await sparseFolders(worktree);
  const wanted = [...new Set(folders.map(cleanFolder).filter((f) => f !== "" && f !== "."))];
  const added = wanted.filter((f) => !have.some((h) => f === h || f.startsWith(`${h}/`)));
  if (added.length > 0) await runGit(worktree, ["sparse-checkout", "add", "--", ...added]);
  return added;
}

/** The folder to add so that `rel` (a file, or a folder when `isFolder`) is checked out; "" when it already is. */
export function folderToHold(folders: readonly string[], rel: string, isFolder: boolean): string {
  const clean = cleanFolder(rel);
  if (isFolder) return folders.some((f) => clean === f || clean.startsWith(`${f}/`)) ? "" : clean;
  return coneHolds(folders, clean) ? "" : parentFolder(clean);
}

/** Tracked files (under `spec`) that the cone leaves out: skip-worktree entries of the index. */
export async function pathsOutsideCone(worktree: string, spec = "."): Promise<Set<string>> {
  const listed = (await runGit(worktree, ["ls-files", "-t", "-z", "--", spec])).stdout.split("\0");
  return new Set(listed.filter((e) => e.startsWith("S ")).map((e) => e.slice(2)));
}

/** Tracked files under `dir` that the cone leaves out (skip-worktree in the index), with their sizes at HEAD. */
export async function filesOutsideCone(worktree: string, dir: string): Promise<Array<{ path: string; size: number }>> {
  const spec = cleanFolder(dir) === "" ? "." : cleanFolder(dir);
  const skipped = await pathsOutsideCone(worktree, spec);
  if (skipped.size === 0) return [];
  const tree = (await runGit(worktree, ["ls-tree", "-r", "-l", "-z", "--full-tree", "HEAD", "--", spec])).stdout;
  const out: Array<{ path: string; size: number }> = [];
  for (const entry of tree.split("\0")) {
    const m = /^\S+ blob \S+\s+(\d+)\t(.+)$/s.exec(entry);
    if (m && skipped.has(m[2]!)) out.push({ path: m[2]!, size: Number(m[1]) });
  }
  return out;
}
