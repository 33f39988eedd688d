// The file tools of an agent: list, read, search, write, edit. Every path goes through resolveInWorktree first;
// every result is capped and says when it was cut.
import { lstat, mkdir, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { ToolArgs, ToolResult } from "../protocol/tools";
import { applyEditBlocks, editBlocksOf } from "./editBlocks";
import { runGit } from "./gitExec";
import { PathRefusedError, resolveInWorktree, type ContainmentRules } from "./pathContainment";
import { replaceFileContent } from "./replaceFile";
import { secretLinkReason } from "./secretLinks";

export class ToolFailure extends Error {
  constructor(
    readonly code: "not-found" | "not-unique" | "too-large" | "io-failed" | "invalid-args" | "git-failed",
    message: string,
  ) {
    super(message);
    this.name = "ToolFailure";
  }
}

export interface FileToolLimits {
  readonly maxReadBytes: number;
  readonly maxReadChars: number;
  /**
   * Lines `read_file` returns when the call names no endLine: a window, so one read of a long file does not fill
   * an agent's share; the result says how many lines remain and where to go on.
   */
  readonly defaultReadLines: number;
  readonly maxListEntries: number;
  readonly maxSearchLineChars: number;
}

export const defaultFileLimits: FileToolLimits = {
  maxReadBytes: 2_000_000,
  maxReadChars: 60_000,
  defaultReadLines: 200,
  maxListEntries: 500,
  maxSearchLineChars: 300,
};

export async function listDir(
  rules: ContainmentRules,
  args: ToolArgs<"list_dir">,
  limits = defaultFileLimits,
): Promise<ToolResult<"list_dir">> {
  const dir = await resolveInWorktree(args.path, "read", rules);
  if (!dir.exists) throw new ToolFailure("not-found", `${args.path} does not exist.`);
  const entries: ToolResult<"list_dir">["entries"] = [];
  let truncated = false;
  const walk = async (abs: string, rel: string, depth: number): Promise<void> => {
    const names = (await readdir(abs)).sort();
    for (const name of names) {
      if (rel === "" && name === ".git") continue;
      if (entries.length >= limits.maxListEntries) {
        truncated = true;
        return;
      }
      const st = await lstat(path.join(abs, name));
      const type = st.isSymbolicLink() ? "symlink" : st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";
      const relName = rel ? `${rel}/${name}` : name;
      entries.push({ path: relName, type, size: st.size });
      if (type === "dir" && depth > 1) await walk(path.join(abs, name), relName, depth - 1);
    }
  };
  await walk(dir.real, dir.rel, args.depth);
  return { entries, truncated };
}

/** Refuses a file that is a hard link to one of the user's secret files (secretLinks.ts). */
async function refuseSecretLink(rules: ContainmentRules, real: string, shown: string): Promise<void> {
  const why = await secretLinkReason(real, shown, rules.secrets ?? {});
  if (why !== undefined) throw new PathRefusedError("protected-path", why);
}

async function readText(rules: ContainmentRules, real: string, shown: string, maxBytes: number): Promise<string> {
  const st = await lstat(real).catch(() => null);
  if (!st) throw new ToolFailure("not-found", `${shown} does not exist: list its folder to see what is there.`);
  if (!st.isFile()) throw new ToolFailure("invalid-args", `${shown} is not a regular file.`);
  if (st.nlink > 1) await refuseSecretLink(rules, real, shown);
  if (st.size > maxBytes)
    throw new ToolFailure(
      "too-large",
      `${shown} has ${st.size} bytes, more than the ${maxBytes} the tools read; use search to find the part you need.`,
    );
  const buf = await readFile(real);
  if (buf.subarray(0, 8000).includes(0))
    throw new ToolFailure("invalid-args", `${shown} looks binary (it has NUL bytes); the tools read text files only.`);
  return buf.toString("utf8");
}

export async function readFileTool(
  rules: ContainmentRules,
  args: ToolArgs<"read_file">,
  limits = defaultFileLimits,
): Promise<ToolResult<"read_file">> {
  const file = await resolveInWorktree(args.path, "read", rules);
  const lines = (await readText(rules, file.real, args.path, limits.maxReadBytes)).split("\n");
  const totalLines = lines.length;
  const start = Math.min(args.startLine ?? 1, Math.max(totalLines, 1));
  const end = Math.min(args.endLine ?? start + limits.defaultReadLines - 1, totalLines);
  if (end < start) throw new ToolFailure("invalid-args", `endLine ${args.endLine} is before startLine ${start}.`);
  let content = "";
  let last = start - 1;
  for (let i = start; i <= end; i++) {
    const line = `${i}\t${lines[i - 1]}\n`;
    if (content.length + line.length > limits.maxReadChars) break;
    content += line;
    last = i;
  }
  const truncated = last < end;
  const remainingLines = totalLines - last;
  if (truncated)
    content += `[... cut at line ${last}: read from startLine ${last + 1} for more; ${remainingLines} more lines]\n`;
  else if (args.endLine === undefined && remainingLines > 0)
    content += `[${remainingLines} more lines: read from startLine ${last + 1}]\n`;
  return { path: file.rel, startLine: start, endLine: last, totalLines, remainingLines, content, truncated };
}

export async function searchTool(
  rules: ContainmentRules,
  args: ToolArgs<"search">,
  limits = defaultFileLimits,
): Promise<ToolResult<"search">> {
  const specs: string[] = [];
  for (const p of args.paths) specs.push(`:(literal)${(await resolveInWorktree(p, "read", rules)).rel || "."}`);
  const flags = ["grep", "-n", "-I", "--untracked", "--no-color", "--full-name", "-z"];
  if (args.fixedString) flags.push("-F");
  else flags.push("-E");
  if (args.ignoreCase) flags.push("-i");
  const out = await runGit(rules.root, [...flags, "-e", args.pattern, "--", ...(specs.length > 0 ? specs : ["."])], {
    okExitCodes: [1],
  });
  if (out.exitCode === 1) return { matches: [], truncated: false };
  const matches: ToolResult<"search">["matches"] = [];
  const records = out.stdout.split("\n").filter(Boolean);
  const linked = new Map<string, string | undefined>();
  for (const rec of records) {
    if (matches.length >= args.maxResults) break;
    const [file, line, ...rest] = rec.split("\0");
    // A hard link to a secret file shows one line saying so, none of its text.
    if (!linked.has(file))
      linked.set(file, await secretLinkReason(path.join(rules.root, file), file, rules.secrets ?? {}));
    const secret = linked.get(file);
    if (secret !== undefined) {
      if (!matches.some((m) => m.path === file)) matches.push({ path: file, line: 0, text: `[not shown: ${secret}]` });
      continue;
    }
    const text = rest.join("\0");
    matches.push({
      path: file,
      line: Number(line),
      text: text.length > limits.maxSearchLineChars ? `${text.slice(0, limits.maxSearchLineChars)}[...]` : text,
    });
  }
  return { matches, truncated: records.length > matches.length };
}

/** All writes go through one helper: write-new-then-rename, so neither a symlink nor a hard link is written through. */
async function writeResolved(real: string, content: string): Promise<void> {
  await replaceFileContent(real, content);
}

export async function writeFileTool(
  rules: ContainmentRules,
  args: ToolArgs<"write_file">,
): Promise<ToolResult<"write_file">> {
  const file = await resolveInWorktree(args.path, "write", rules);
  if (file.exists && !(await lstat(file.real)).isFile())
    throw new ToolFailure("invalid-args", `${args.path} exists and is not a regular file.`);
  if (file.exists) await refuseSecretLink(rules, file.real, args.path);
  await mkdir(path.dirname(file.real), { recursive: true });
  // The folders just made may have raced with a symlink swap: resolve again before writing.
  const again = await resolveInWorktree(args.path, "write", rules);
  await writeResolved(again.real, args.content);
  return { path: again.rel, bytes: Buffer.byteLength(args.content), created: !file.exists };
}

export async function editFileTool(
  rules: ContainmentRules,
  args: ToolArgs<"edit_file">,
  limits = defaultFileLimits,
): Promise<ToolResult<"edit_file">> {
  const file = await resolveInWorktree(args.path, "write", rules);
  const text = await readText(rules, file.real, args.path, limits.maxReadBytes);
  const edit = applyEditBlocks(text, editBlocksOf(args), args.path);
  if (!edit.ok) throw new ToolFailure(edit.code, edit.message);
  await writeResolved(file.real, edit.text);
  return { path: file.rel, line: edit.lines[0]!, lines: edit.lines };
}
