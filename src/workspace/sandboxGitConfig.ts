// The repository's git config as a sandboxed command sees it: only the keys git needs to read the repository
// (format version, extensions, line endings, file modes), never remotes (a token in a URL), credential helpers,
// extra HTTP headers, or keys that make git run programs. The copy is bound read-only over `<gitDir>/config`.
import { writeFile } from "node:fs/promises";
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
  const out = await runGit(gitDir, ["config", "--file", path.join(gitDir, "config"), "--list", "-z"], {
    okExitCodes: [1],
  });
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
