// The repository's git config as a sandboxed command sees it: only the keys git needs to read the repository
// (format version, extensions, line endings, file modes), never remotes (a token in a URL), credential helpers,
// extra HTTP headers, includes, or keys that make git run programs. The copy is bound read-only over
// `<gitDir>/config`; every other config in the git dir (submodules' `modules/**/config`, worktrees'
// `config.worktree`) gets the same treatment.
import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { runGit } from "./gitExec";

const KEPT =
  /^(core\.(repositoryformatversion|bare|filemode|ignorecase|precomposeunicode|symlinks|autocrlf|eol|safecrlf|logallrefupdates|quotepath|checkstat|trustctime|longpaths|abbrev)|extensions\.[a-z0-9]+)$/i;

/** Quotes a config value so that no character in it can start a new key or section. */
function quoted(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\t/g, "\\t")}"`;
}

/**
 * Writes the sanitized copy of `<gitDir>/config` to `dest` and returns `dest`; `excludesFile` (a path inside the
 * sandbox) becomes its `core.excludesFile`, so links the sandbox adds are not changes to git either.
 */
export async function writeSandboxGitConfig(gitDir: string, dest: string, excludesFile?: string): Promise<string> {
  return writeSanitizedConfig(path.join(gitDir, "config"), dest, excludesFile);
}

/** Writes the sanitized copy of the git config file `file` to `dest` and returns `dest`. */
export async function writeSanitizedConfig(file: string, dest: string, excludesFile?: string): Promise<string> {
  const out = await runGit(path.dirname(file), ["config", "--file", file, "--list", "-z"], { okExitCodes: [1] });
  const sections = new Map<string, string[]>();
  for (const entry of out.stdout.split("\0")) {
    const nl = entry.indexOf("\n");
    const key = nl < 0 ? entry : entry.slice(0, nl);
    if (!KEPT.test(key)) continue;
    const [section, name] = key.toLowerCase().split(".");
    const lines = sections.get(section) ?? [];
    lines.push(`\t${name} = ${quoted(nl < 0 ? "true" : entry.slice(nl + 1))}`);
    sections.set(section, lines);
  }
  if (excludesFile !== undefined) {
    const core = sections.get("core") ?? [];
    core.push(`\texcludesfile = ${quoted(excludesFile)}`);
    sections.set("core", core);
  }
  const text = [...sections].map(([section, lines]) => `[${section}]\n${lines.join("\n")}\n`).join("");
  await writeFile(dest, text, { mode: 0o644 });
  return dest;
}

/** At most this many configs are looked for (a repository with more submodules keeps the rest unreadable). */
const MOST_CONFIGS = 500;

/**
 * The git dir's configs other than its own `config`: `config.worktree` at its root and under `worktrees/*`, and
 * every `config` or `config.worktree` under `modules/` (submodules' git dirs, nested ones too), objects and refs
 * left unvisited. Absolute paths.
 */
export async function otherGitConfigs(gitDir: string): Promise<string[]> {
  const found: string[] = [];
  const list = async (dir: string) => {
    try {
      return await readdir(dir, { withFileTypes: true });
    } catch {
      return [];
    }
  };
  for (const e of await list(gitDir))
    if (e.isFile() && e.name === "config.worktree") found.push(path.join(gitDir, e.name));
  for (const w of await list(path.join(gitDir, "worktrees")))
    if (w.isDirectory())
      for (const e of await list(path.join(gitDir, "worktrees", w.name)))
        if (e.isFile() && e.name === "config.worktree") found.push(path.join(gitDir, "worktrees", w.name, e.name));
  const walk = async (dir: string, depth: number): Promise<void> => {
    for (const e of await list(dir)) {
      if (found.length >= MOST_CONFIGS) return;
      const p = path.join(dir, e.name);
      if (e.isFile() && (e.name === "config" || e.name === "config.worktree")) found.push(p);
      else if (e.isDirectory() && depth < 12 && !["objects", "refs", "logs", "hooks", "lfs"].includes(e.name))
        await walk(p, depth + 1);
    }
  };
  await walk(path.join(gitDir, "modules"), 0);
  return found;
}

/** Sanitized copies (in `scratch`) of the git dir's other configs, each with the path it is shown at. */
export async function sanitizedConfigOverlays(
  gitDir: string,
  scratch: string,
): Promise<Array<{ path: string; source: string }>> {
  const files = await otherGitConfigs(gitDir);
  if (files.length === 0) return [];
  await mkdir(scratch, { recursive: true });
  return Promise.all(
    files.map(async (file, i) => ({
      path: file,
      source: await writeSanitizedConfig(file, path.join(scratch, `${i}`)),
    })),
  );
}
