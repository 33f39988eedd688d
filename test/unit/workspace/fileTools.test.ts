// The file and git tools an agent calls: schemas (and their JSON schemas for grammars), line ranges and caps,
// search with path filters and caps, exact unique edits with clear errors, status, diff and commit.
import assert from "node:assert/strict";
import { callTool } from "./callTool";
import { readFileSync } from "node:fs";
import path from "node:path";
import {
  toolArgSchemas,
  toolJsonSchemas,
  toolNames,
  toolResultSchemas,
  type ToolName,
} from "../../../src/protocol/tools";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { cleanRepo, removeDir, tempDir } from "./gitFixture";

describe("workspace: file and git tools", function () {
  this.timeout(60_000);
  let repoDir = "";
  let stateDir = "";
  let ws: AgentWorkspace;

  /** Calls a tool that must succeed, checks its result against the result schema, and returns it. */
  async function ok<N extends ToolName>(tool: N, args: unknown) {
    const out = await callTool(ws, tool, args);
    if (!out.ok) assert.fail(`${tool} failed: ${out.error.code}: ${out.error.message}`);
    toolResultSchemas[tool].parse(out.result);
    return out.result;
  }
  async function fails(tool: ToolName, args: unknown) {
    const out = await callTool(ws, tool, args);
    if (out.ok) assert.fail(`${tool} ${JSON.stringify(args)} should have failed`);
    return out.error;
  }

  before(async () => {
    repoDir = cleanRepo();
    stateDir = tempDir("state");
    const repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: "ft" });
    await repo.start({ includeUncommitted: false });
    ws = await AgentWorkspace.open(repo, "a1", { policy: new CommandPolicy({ allow: [], ask: [], deny: [] }) });
  });
  after(() => {
    removeDir(repoDir);
    removeDir(stateDir);
  });

  it("has a zod schema and a JSON schema for every tool", () => {
    const schemas = toolJsonSchemas() as Record<string, { type?: string; properties?: Record<string, unknown> }>;
    assert.deepEqual(Object.keys(schemas).sort(), [...toolNames].sort());
    for (const name of toolNames) {
      assert.equal(schemas[name].type, "object", name);
      assert.ok(toolArgSchemas[name] && toolResultSchemas[name]);
    }
    assert.ok(schemas.edit_file.properties?.search && schemas.read_file.properties?.startLine);
  });

  it("rejects bad arguments and unknown tools with a clear message", async () => {
    assert.match((await fails("read_file", { path: 3 })).message, /path/);
    const unknown = await callTool(ws, "format_disk", {});
    assert.ok(!unknown.ok && /no tool "format_disk"/.test(unknown.error.message));
  });

  it("writes, reads line ranges and cuts long reads", async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i + 1} ${"x".repeat(40)}`).join("\n");
    const written = await ok("write_file", { path: "data/big.txt", content: lines });
    assert.equal(written.created, true);
    const part = await ok("read_file", { path: "data/big.txt", startLine: 10, endLine: 12 });
    assert.equal(
      part.content,
      `10\tline 10 ${"x".repeat(40)}\n11\tline 11 ${"x".repeat(40)}\n12\tline 12 ${"x".repeat(40)}\n`,
    );
    assert.equal(part.truncated, false);
    assert.equal(part.totalLines, 5000);
    assert.equal(part.remainingLines, 4988);
    const all = await ok("read_file", { path: "data/big.txt", endLine: 5000 });
    assert.equal(all.truncated, true);
    assert.ok(all.endLine < 5000 && all.content.length < 61_000);
    assert.equal(all.remainingLines, 5000 - all.endLine);
    assert.match(all.content, /cut at line \d+: read from startLine \d+ for more; \d+ more lines\]\n$/);
  });

  it("reads a window of lines when no endLine is given, and says how many lines remain", async () => {
    const lines = Array.from({ length: 450 }, (_, i) => `row ${i + 1}`).join("\n");
    await ok("write_file", { path: "data/window.txt", content: lines });
    const first = await ok("read_file", { path: "data/window.txt" });
    assert.deepEqual([first.startLine, first.endLine, first.remainingLines, first.truncated], [1, 200, 250, false]);
    assert.match(first.content, /^1\trow 1\n/);
    assert.match(first.content, /200\trow 200\n\[250 more lines: read from startLine 201\]\n$/);
    const last = await ok("read_file", { path: "data/window.txt", startLine: 401 });
    assert.deepEqual([last.startLine, last.endLine, last.remainingLines], [401, 450, 0]);
    assert.match(last.content, /450\trow 450\n$/, "nothing remains: no note");
    assert.equal((await fails("read_file", { path: "data/missing.txt" })).code, "not-found");
  });

  it("edits by an exact, unique search with clear errors otherwise", async () => {
    await ok("write_file", { path: "src/edit.ts", content: "const a = 1;\nconst b = 1;\nconst c = 2;\n" });
    const missing = await fails("edit_file", { path: "src/edit.ts", search: "const d", replace: "x" });
    assert.equal(missing.code, "not-found");
    assert.match(missing.message, /not found .* must match exactly/);
    const twice = await fails("edit_file", { path: "src/edit.ts", search: "= 1;", replace: "= 3;" });
    assert.equal(twice.code, "not-unique");
    assert.match(twice.message, /occurs 2 times .*lines 1, 2/);
    const done = await ok("edit_file", { path: "src/edit.ts", search: "const b = 1;", replace: "const b = 10;" });
    assert.equal(done.line, 2);
    assert.equal(
      readFileSync(path.join(ws.worktree.path, "src/edit.ts"), "utf8"),
      "const a = 1;\nconst b = 10;\nconst c = 2;\n",
    );
  });

  it("lists folders to a depth, without .git", async () => {
    const top = await ok("list_dir", { path: "." });
    const names = top.entries.map((e) => e.path);
    assert.ok(names.includes("src") && names.includes("README.md"));
    assert.ok(!names.includes(".git"));
    const deep = await ok("list_dir", { path: ".", depth: 2 });
    assert.ok(deep.entries.some((e) => e.path === "src/lib.ts"));
  });

  it("searches with git grep, path filters and a cap", async () => {
    const hits = await ok("search", { pattern: "export", paths: ["src"] });
    assert.ok(hits.matches.length >= 2);
    assert.ok(hits.matches.every((m) => m.path.startsWith("src/")));
    assert.ok(hits.matches.some((m) => m.path === "src/lib.ts" && m.line === 1));
    const capped = await ok("search", { pattern: "line", paths: ["data"], maxResults: 5 });
    assert.equal(capped.matches.length, 5);
    assert.equal(capped.truncated, true);
    const none = await ok("search", { pattern: "no-such-text-anywhere", fixedString: true });
    assert.deepEqual(none.matches, []);
  });

  it("reports status and diff, and commits", async () => {
    const status = await ok("git_status", {});
    assert.ok(status.files.some((f) => f.path === "src/edit.ts" && f.worktree === "?"));
    await ok("edit_file", { path: "src/lib.ts", search: "return a + b;", replace: "return b + a;" });
    const diff = await ok("git_diff", { paths: ["src/lib.ts"] });
    assert.match(diff.diff, /-  return a \+ b;\n\+  return b \+ a;/);
    const commit = await ok("commit", { message: "agent work" });
    assert.equal(commit.committed, true);
    assert.match(commit.sha ?? "", /^[0-9a-f]{40}$/);
    assert.equal((await ok("git_status", {})).files.length, 0);
    assert.equal((await ok("commit", { message: "again" })).committed, false);
  });
});
