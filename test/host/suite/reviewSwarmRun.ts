// One scripted swarm shared by the approvals, findings and review tests (a run takes 30-100 s here): two
// workers and a synthesist on stories260K, in a fresh git repository of the sample project. agent-1 fixes
// median, merges it into the integration branch and posts findings with file:line refs; agent-2 writes
// src/variance.js on its own branch without merging it, and asks to run `node --version` (policy: ask).
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as vscode from "vscode";
import type { SwarmboardTestHooks } from "../../../src/host/testHooks";
import type { TurnScript } from "../../../src/protocol/turnScript";
import { waitFor } from "./hostApi";

export interface SharedRun {
  readonly swarmId: string;
  /** The user's repository (a fresh clone of the sample project, on `main`). */
  readonly repo: string;
  readonly stateDir: string;
}

export function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, "CONTRIBUTING.md"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the repository root (CONTRIBUTING.md) above ${__dirname}`);
    dir = parent;
  }
  return dir;
}

export function modelPath(name = "stories260K.gguf"): string {
  const dir = process.env.SWARMBOARD_MODELS_DIR ?? path.join(repoRoot(), "..", "shared", "models");
  const file = path.join(dir, name);
  if (!existsSync(file))
    throw new Error(`test model ${file} is missing: put ${name} in ../shared/models or set SWARMBOARD_MODELS_DIR`);
  return file;
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    "git",
    ["-c", "core.hooksPath=/dev/null", "-c", "user.name=User", "-c", "user.email=user@example.invalid", ...args],
    { cwd, encoding: "utf8" },
  ).trim();
}

/** A fresh repository of the sample project committed on main, in a new temp folder; `before` adds files first. */
export function sampleRepo(prefix: string, before?: (repo: string) => void): { root: string; repo: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), `swarmboard-${prefix}-`));
  const repo = path.join(root, "repo");
  cpSync(path.join(repoRoot(), "examples", "sample-workspace"), repo, { recursive: true });
  before?.(repo);
  git(repo, "init", "-q", "-b", "main");
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "sample project");
  return { root, repo };
}

export const varianceSource =
  "function variance(values) {\n  const m = values.reduce((a, b) => a + b, 0) / values.length;\n  return values.reduce((a, b) => a + (b - m) ** 2, 0) / values.length;\n}\n\nmodule.exports = { variance };\n";
/** One worker that posts findings and a synthesist that reports: the smallest whole swarm a host test runs. */
export const shortRecipe = {
  name: "short",
  description: "One worker posts a finding; the synthesist reports.",
  roles: [
    { name: "worker", count: 1, tools: ["post_finding"], instructions: "Post what you see." },
    { name: "synthesist", count: 1, tools: ["grep_board"], instructions: "Write the report." },
  ],
  topology: {
    kind: "dag",
    stages: [
      { name: "work", roles: ["worker"] },
      { name: "report", roles: ["synthesist"], after: ["work"] },
    ],
  },
  visibility: "shared",
  synthesist: "synthesist",
  budgets: { wallClockMs: 10 * 60_000, tokensPerAgent: 100_000, kvCells: 32_768, steps: 20 },
  taskSources: ["goal"],
  merge: false,
};

export const askedCommand = "node --version";

const oldMedian = "  const sorted = [...values].sort();";
const newMedian = "  const sorted = [...values].sort((a, b) => a - b);";

const script: TurnScript = {
  agents: {
    "agent-1": [
      { tool: "claim", args: { scope: { paths: ["src/stats.js"] }, text: "median sorts as strings" } },
      { tool: "edit_file", args: { path: "src/stats.js", search: oldMedian, replace: newMedian } },
      { tool: "commit", args: { message: "Sort median numerically" } },
      { tool: "merge_progress", args: {} },
      {
        tool: "post_finding",
        args: { kind: "FACT", text: "mean throws on an empty list", refs: [{ path: "src/stats.js", line: 4 }] },
      },
      {
        tool: "post_finding",
        args: {
          kind: "PATCH_SUMMARY",
          text: "median sorts numerically now",
          refs: [{ path: "src/stats.js", line: 9 }],
        },
      },
      { tool: "finish", args: { summary: "median sorts numerically" } },
    ],
    "agent-2": [
      { tool: "claim", args: { scope: { paths: ["src/variance.js"] }, text: "add variance" } },
      { tool: "write_file", args: { path: "src/variance.js", content: varianceSource } },
      { tool: "commit", args: { message: "Add variance" } },
      { tool: "run_command", args: { command: askedCommand } },
      {
        tool: "post_finding",
        args: { kind: "OBSERVED", text: "variance has no test yet", refs: [{ path: "src/stats.js", line: 15 }] },
      },
      { tool: "finish", args: { summary: "variance on its branch" } },
    ],
    synthesist: [
      { tool: "write_report", args: { title: "Review run", body: "median fixed; variance on agent-2's branch." } },
    ],
  },
};

const codeTools = [
  "list_dir",
  "read_file",
  "grep_board",
  "post_finding",
  "send_message",
  "claim",
  "release",
  "write_file",
  "edit_file",
  "run_command",
  "git_status",
  "git_diff",
  "commit",
  "merge_progress",
];

const recipe = {
  name: "review",
  description: "Two workers on the sample project; a synthesist reports.",
  roles: [
    {
      name: "worker",
      count: 2,
      tools: codeTools,
      instructions: "Claim a file, change it, commit, post what you found.",
    },
    { name: "synthesist", count: 1, tools: ["grep_board", "read_file"], instructions: "Write the report." },
  ],
  topology: {
    kind: "dag",
    stages: [
      { name: "work", roles: ["worker"] },
      { name: "report", roles: ["synthesist"], after: ["work"] },
    ],
  },
  visibility: "shared",
  synthesist: "synthesist",
  budgets: { wallClockMs: 10 * 60_000, tokensPerAgent: 100_000, kvCells: 32_768, steps: 40 },
  taskSources: ["goal"],
  merge: true,
  // This run is about the person's review; its policy does not allow `npm test`, so with verification on (the
  // default) agent-1's merge would be refused as untested. Verification has its own swarm test (defaultVerifySwarm).
  verify: "off",
};

let shared: Promise<SharedRun> | undefined;

async function start(hooks: SwarmboardTestHooks): Promise<SharedRun> {
  const root = mkdtempSync(path.join(os.tmpdir(), "swarmboard-review-"));
  const repo = path.join(root, "repo");
  cpSync(path.join(repoRoot(), "examples", "sample-workspace"), repo, { recursive: true });
  git(repo, "init", "-q", "-b", "main");
  // A user has an identity: the review's merge commits in their repository need one.
  git(repo, "config", "user.name", "Sample User");
  git(repo, "config", "user.email", "user@example.invalid");
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "sample project");
  const stateDir = path.join(root, "state");
  mkdirSync(stateDir);
  const recipeFile = path.join(root, "review-recipe.json");
  writeFileSync(recipeFile, JSON.stringify(recipe));
  const swarmId = await hooks.reviewSurfaces.swarms.start({
    goal: "Fix median and add variance",
    recipe: recipeFile,
    modelPath: modelPath(),
    workspace: repo,
    stateDir,
    threads: 2,
    policy: { allow: ["git status"], ask: [askedCommand], deny: ["rm -rf"] },
    script,
  });
  return { swarmId, repo, stateDir };
}

/** Starts the shared run once; every caller gets the same swarm. */
export function sharedRun(hooks: SwarmboardTestHooks): Promise<SharedRun> {
  shared ??= start(hooks);
  return shared;
}

/**
 * Picks an item of our quick pick as a user would: waits for it, makes the item active and presses Enter
 * (VS Code's accept command) until `settled` resolves; resolves with what it resolved to.
 */
export async function pickInOurPicker<T>(
  hooks: SwarmboardTestHooks,
  match: (label: string) => boolean,
  settled: Thenable<T>,
  filter?: string,
): Promise<T> {
  const picker = await waitFor("our quick pick", () => hooks.reviewSurfaces.picker());
  const item = await waitFor("the item to pick", () => picker.items.find((i) => match(i.label)));
  // Typing into the pick, as a user narrows a long list: the workbench's focused row is then the one asked for.
  if (filter !== undefined) {
    picker.value = filter;
    await new Promise((r) => setTimeout(r, 300));
  }
  let done = false;
  const result = Promise.resolve(settled).finally(() => (done = true));
  const deadline = Date.now() + 20_000;
  while (!done && Date.now() < deadline) {
    picker.activeItems = [item];
    await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
    await Promise.race([result, new Promise((r) => setTimeout(r, 200))]);
  }
  if (!done) throw new Error(`the quick pick did not accept ${item.label}`);
  return result;
}
