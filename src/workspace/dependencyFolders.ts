// The user's installed dependencies (node_modules, a Python .venv), made usable in agent and scratch worktrees
// without copying or reinstalling them: git worktrees hold only tracked files, so `npm test` there would find no
// mocha. Each folder found in the user's checkout is linked into the worktree (a symlink, outside the sandbox)
// and bound read-only at its own real path inside the sandbox, where the link resolves to it. Nothing writes
// through the link: the file tools refuse paths that resolve outside the worktree, sandboxed commands meet a
// read-only mount, the commit tool leaves the link out and a branch that adds it is never merged.
import { lstat, readlink, realpath, stat, symlink } from "node:fs/promises";
import path from "node:path";
import { runGit } from "./gitExec";

/** What each ecosystem installs inside the project: looked for at the checkout's top level. */
export const DEFAULT_DEPENDENCY_FOLDERS = ["node_modules", ".venv", "venv"] as const;

export interface DependencyFolders {
  /** Worktree-relative names found installed in the user's checkout (e.g. `node_modules`). */
  readonly names: readonly string[];
  /** Real path of each of those folders, in the same order: what the sandbox binds read-only. */
  readonly sources: readonly string[];
  /** Every name looked for, to say so when a test command cannot run. */
  readonly lookedFor: readonly string[];
}

export const NO_DEPENDENCY_FOLDERS: DependencyFolders = { names: [], sources: [], lookedFor: [] };

/** A usable folder name: relative, no `..`, not inside git's own folder. */
function validName(name: string): string | undefined {
  const norm = path.posix.normalize(name.replace(/\/+$/, ""));
  if (norm === "." || norm.startsWith("../") || norm === ".." || path.posix.isAbsolute(norm)) return undefined;
  if (norm.split("/").some((s) => s.toLowerCase() === ".git")) return undefined;
  return norm;
}

async function isTracked(checkout: string, name: string): Promise<boolean> {
  const out = await runGit(checkout, ["ls-files", "-z", "--", `:(literal)${name}`]);
  return out.stdout !== "";
}

/**
 * The dependency folders installed in `checkout`: the defaults plus `extra` (a recipe's or a setting's list),
 * each a real directory (a link to one counts) that git does not track. Invalid names are skipped.
 */
export async function detectDependencyFolders(
  checkout: string,
  commonDir: string,
  extra: readonly string[] = [],
): Promise<DependencyFolders> {
  const lookedFor = [...new Set([...DEFAULT_DEPENDENCY_FOLDERS, ...extra])];
  const names: string[] = [];
  const sources: string[] = [];
  for (const raw of lookedFor) {
    const name = validName(raw);
    if (name === undefined || names.includes(name)) continue;
    const full = path.join(checkout, name);
    const isDir = await stat(full).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!isDir) continue;
    const real = await realpath(full);
    // Never git's own folder, whatever a link says.
    if (real === commonDir || real.startsWith(commonDir + path.sep)) continue;
    if (await isTracked(checkout, name)) continue;
    names.push(name);
    sources.push(real);
  }
  return { names, sources, lookedFor };
}

/**
 * Links each dependency folder into `worktree` where nothing is in the way (a tracked folder of that name or
 * an earlier link stays as it is); returns the names linked now or before.
 */
export async function linkDependencyFolders(worktree: string, deps: DependencyFolders): Promise<string[]> {
  const linked: string[] = [];
  for (const [i, name] of deps.names.entries()) {
    const at = path.join(worktree, name);
    const present = await lstat(at).then(
      (s) => (s.isSymbolicLink() ? "link" : "other"),
      () => "none" as const,
    );
    if (present === "other") continue;
    if (present === "none") {
      // A nested name (packages/a/node_modules) is linked only where its tracked parent is.
      const parent = await stat(path.dirname(at)).then(
        (s) => s.isDirectory(),
        () => false,
      );
      if (!parent) continue;
      await symlink(deps.sources[i], at, "dir");
    }
    linked.push(name);
  }
  return linked;
}

/** Paths git reports that are only the links themselves (untracked symlinks), which nothing may commit. */
export function isDependencyLink(rel: string, links: readonly string[]): boolean {
  const clean = rel.replace(/\/+$/, "");
  return links.includes(clean);
}

/**
 * `:(exclude)` pathspecs that keep `git add -A -- .` from staging the links, for the links git does not ignore
 * already. Git refuses (exit 1, "paths are ignored by one of your .gitignore files") a pathspec naming an ignored
 * path, exclude magic included, and whether a link is ignored depends on how the project writes the line:
 * `node_modules` matches the link (so does it after a leading slash or double star); `node_modules/` does not (a
 * link is not a folder), nor does no line. So git itself is asked (check-ignore reads every source of ignores
 * that add reads); call it in the same queue slot as the add, so both see the same ignore files.
 */
export async function excludeLinkSpecs(worktree: string, links: readonly string[]): Promise<string[]> {
  const specs: string[] = [];
  for (const link of links) {
    // check-ignore takes no `literal` magic; `./` keeps a name starting with `:` from being read as magic.
    const asked = await runGit(worktree, ["check-ignore", "-q", "--", `./${link}`], { okExitCodes: [1] });
    if (asked.exitCode === 1) specs.push(`:(exclude,literal)${link}`);
  }
  return specs;
}

/**
 * Which of `changed` (worktree-relative paths git reports as changes) are the worktree's own links: a symlink to
 * where `<checkout>/<path>` is (really, or by name when the folder is gone since). Known by what it points at, not
 * by name, so a past swarm's links are found whatever its recipe listed; they hold no work of an agent.
 */
export async function ownDependencyLinks(
  worktree: string,
  checkout: string,
  changed: readonly string[],
): Promise<string[]> {
  const own: string[] = [];
  for (const raw of changed) {
    const rel = raw.replace(/\/+$/, "");
    const at = path.join(worktree, rel);
    const target = await readlink(at).catch(() => undefined);
    if (target === undefined) continue;
    const pointsAt = path.resolve(path.dirname(at), target);
    const named = path.join(checkout, rel);
    const real = await realpath(named).catch(() => undefined);
    if (pointsAt === named || pointsAt === real) own.push(raw);
  }
  return own;
}
