// What the file tools do in a sparse worktree (sparseCheckout.ts): a read of a file outside the cone, and any write
// there, first adds the file's folder to the cone (so the agent works on real files, and `git add` takes them);
// listing and searching see the whole tree without widening it, the files outside the cone read from the index
// (their content there is their content at the agent's last commit or merge: nothing outside the cone can have
// changed on disk). A merge that conflicts outside the cone checks those files out itself.
import path from "node:path";
import type { Scope } from "../protocol/board";
import { SerialQueue } from "../core/serialQueue";
import type { ToolArgs, ToolResult } from "../protocol/tools";
import { defaultFileLimits, listDir, searchTool, ToolFailure } from "./fileTools";
import { runGit } from "./gitExec";
import { resolveInWorktree, type ContainmentRules } from "./pathContainment";
import { parseShell } from "./shellParse";
import { isSparseWorktree } from "./sparseMarker";
import type { SwarmRepository } from "./swarmRepository";
import {
  coneOfScope,
  filesOutsideCone,
  folderToHold,
  pathsOutsideCone,
  sparseFolders,
  widenSparse,
} from "./sparseCheckout";

type ListEntry = ToolResult<"list_dir">["entries"][number];
type SearchMatch = ToolResult<"search">["matches"][number];

/** Sorts paths as a walk of the tree would list them: folder by folder, names in order. */
function byTreeOrder(a: string, b: string): number {
  const x = a.split("/");
  const y = b.split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return x.length - y.length;
}

export class SparseWorktree {
  /** Serialises widenings: two tool calls of one agent never run together, but a claim and a read might. */
  private readonly widenings = new SerialQueue();

  constructor(readonly root: string) {}

  /** The folders in the cone now. */
  folders(): Promise<string[]> {
    return sparseFolders(this.root);
  }

  /** Adds the folders of a claimed scope. */
  async widenToScope(scope: Scope): Promise<string[]> {
    return this.widen(await coneOfScope(this.root, "HEAD", scope));
  }

  /** Before a read: a tracked file outside the cone brings its folder in; anything else is left to the read. */
  async holdForRead(rules: ContainmentRules, relPath: string): Promise<void> {
    const { rel, exists } = await resolveInWorktree(relPath, "read", rules);
    if (exists || rel === "") return;
    const outside = await filesOutsideCone(this.root, rel);
    if (!outside.some((f) => f.path === rel)) return;
    await this.widen([folderToHold(await this.folders(), rel, false)]);
  }

  /** Before a write (new file or not): its folder joins the cone unless the cone holds it already. */
  async holdForWrite(rules: ContainmentRules, relPath: string): Promise<void> {
    const { rel } = await resolveInWorktree(relPath, "write", rules);
    await this.widen([folderToHold(await this.folders(), rel, false)]);
  }

  /**
   * Before a command: the plain words it names (no expansion, not an option) that are tracked files or folders
   * outside the cone bring their folders in, so `cat pkg/x/a.txt` or `node tools/gen.js` find them. A command that
   * names nothing (`npm test`) runs on the cone as it is; verified merges test the whole tree (mergeVerifier.ts).
   */
  async holdForCommand(command: string): Promise<void> {
    const parsed = parseShell(command);
    if (!parsed.ok) return;
    const words = parsed.pipelines
      .flatMap((p) => p.commands)
      .flatMap((c) => [...c.argv.slice(1), ...c.redirects.map((r) => r.target)])
      .filter((w) => w.expansions.length === 0 && w.text !== "" && !w.text.startsWith("-"))
      .map((w) => w.text.replace(/^(\.\/)+/, "").replace(/\/+$/, ""))
      .filter((t) => t !== "" && !path.isAbsolute(t) && !t.split("/").includes(".."));
    if (words.length === 0) return;
    const outside = await pathsOutsideCone(this.root);
    const folders = await this.folders();
    const wanted = new Set<string>();
    for (const word of words) {
      if (outside.has(word)) wanted.add(folderToHold(folders, word, false));
      else if ([...outside].some((p) => p.startsWith(`${word}/`))) wanted.add(folderToHold(folders, word, true));
    }
    await this.widen([...wanted]);
  }

  private widen(folders: readonly string[]): Promise<string[]> {
    const wanted = folders.filter((f) => f !== "");
    if (wanted.length === 0) return Promise.resolve([]);
    return this.widenings.run(() => widenSparse(this.root, wanted));
  }

  /** list_dir over the disk plus the tracked files the cone leaves out, in the order a full tree would list them. */
  async listDir(rules: ContainmentRules, args: ToolArgs<"list_dir">, limits = defaultFileLimits) {
    const { rel, exists } = await resolveInWorktree(args.path, "read", rules);
    const outside = await filesOutsideCone(this.root, rel);
    if (!exists && outside.length === 0) throw new ToolFailure("not-found", `${args.path} does not exist.`);
    if (!exists && outside.some((f) => f.path === rel))
      throw new ToolFailure("invalid-args", `${args.path} is a file: read it with read_file.`);
    const disk = exists
      ? await listDir(rules, { ...args, depth: args.depth }, limits)
      : { entries: [], truncated: false };
    const seen = new Map<string, ListEntry>(disk.entries.map((e) => [e.path, e]));
    const base = rel === "" ? [] : rel.split("/");
    for (const file of outside) {
      const parts = file.path.split("/");
      const below = parts.slice(base.length);
      for (let level = 1; level <= Math.min(below.length, args.depth); level++) {
        const p = parts.slice(0, base.length + level).join("/");
        const isFile = level === below.length;
        if (!seen.has(p)) seen.set(p, { path: p, type: isFile ? "file" : "dir", size: isFile ? file.size : 0 });
      }
    }
    const all = [...seen.values()].sort((a, b) => byTreeOrder(a.path, b.path));
    const entries = all.slice(0, limits.maxListEntries);
    return { entries, truncated: disk.truncated || entries.length < all.length };
  }

  /** search over the disk (the cone, untracked files too) plus the index for the files the cone leaves out. */
  async search(
    rules: ContainmentRules,
    args: ToolArgs<"search">,
    limits = defaultFileLimits,
  ): Promise<ToolResult<"search">> {
    const disk = await searchTool(rules, { ...args, maxResults: Number.MAX_SAFE_INTEGER }, limits);
    const specs: string[] = [];
    for (const p of args.paths) specs.push((await resolveInWorktree(p, "read", rules)).rel);
    const outside = new Set<string>();
    for (const spec of specs.length > 0 ? specs : [""])
      for (const f of await filesOutsideCone(this.root, spec)) outside.add(f.path);
    const cached = outside.size === 0 ? [] : await this.searchIndex(args, specs, outside, limits);
    const all = [...disk.matches, ...cached].sort((a, b) => byTreeOrder(a.path, b.path) || a.line - b.line);
    const matches = all.slice(0, args.maxResults);
    return { matches, truncated: disk.truncated || matches.length < all.length };
  }

  private async searchIndex(
    args: ToolArgs<"search">,
    specs: readonly string[],
    outside: ReadonlySet<string>,
    limits: typeof defaultFileLimits,
  ): Promise<SearchMatch[]> {
    const flags = ["grep", "--cached", "-n", "-I", "--no-color", "--full-name", "-z", args.fixedString ? "-F" : "-E"];
    if (args.ignoreCase) flags.push("-i");
    const paths = specs.length > 0 ? specs.map((s) => `:(literal)${s || "."}`) : ["."];
    const out = await runGit(this.root, [...flags, "-e", args.pattern, "--", ...paths], { okExitCodes: [1] });
    const matches: SearchMatch[] = [];
    for (const rec of out.stdout.split("\n").filter(Boolean)) {
      const [file, line, ...rest] = rec.split("\0");
      if (file === undefined || !outside.has(file)) continue;
      const text = rest.join("\0");
      const cut = text.length > limits.maxSearchLineChars;
      matches.push({
        path: file,
        line: Number(line),
        text: cut ? `${text.slice(0, limits.maxSearchLineChars)}[...]` : text,
      });
    }
    return matches;
  }
}

/** How a writer's worktree is added: sparse, with its first claim's folders, when the swarm asks for sparse. */
export async function addOptions(
  repo: Pick<SwarmRepository, "topLevel" | "integrationBranch">,
  sparse: boolean,
  scope: Scope | undefined,
): Promise<{ sparseFolders?: string[] }> {
  if (!sparse) return {};
  const ref = `refs/heads/${repo.integrationBranch}`;
  return { sparseFolders: scope === undefined ? [] : await coneOfScope(repo.topLevel, ref, scope) };
}

/** The sparse side of a worktree Swarmboard made sparse (a resumed one included), or undefined. */
export function sparseWorktreeAt(root: string): SparseWorktree | undefined {
  return isSparseWorktree(root) ? new SparseWorktree(root) : undefined;
}
