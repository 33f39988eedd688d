// Shared set-up of the swarm tests: a real git repository made from examples/sample-workspace in a temp
// folder, a state folder beside it, and an event collector.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import assert from "node:assert/strict";
import { codeTools } from "../../src/core/builtinRecipes";
import { parseRecipeValue } from "../../src/core/recipeParse";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";

export function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, "CONTRIBUTING.md"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("cannot find the repository root above " + __dirname);
    dir = parent;
  }
  return dir;
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "core.hooksPath=/dev/null", ...args], { cwd, encoding: "utf8" }).trim();
}

export interface SampleRepo {
  readonly root: string;
  readonly workspace: string;
  readonly stateDir: string;
}

/** A fresh repository with the sample project committed on `main`. */
export function makeSampleRepo(): SampleRepo {
  const root = mkdtempSync(path.join(os.tmpdir(), "swarmboard-swarm-"));
  const workspace = path.join(root, "ws");
  cpSync(path.join(repoRoot(), "examples", "sample-workspace"), workspace, { recursive: true });
  git(workspace, "init", "-q", "-b", "main");
  git(workspace, "add", "-A");
  git(workspace, "-c", "user.name=User", "-c", "user.email=user@example.invalid", "commit", "-qm", "sample project");
  return { root, workspace, stateDir: path.join(root, "state") };
}

export function ofType<T extends SwarmEvent["type"]>(
  events: readonly SwarmEvent[],
  type: T,
): Array<Extract<SwarmEvent, { type: T }>> {
  return events.filter((e): e is Extract<SwarmEvent, { type: T }> => e.type === type);
}

/** A recipe of `workers` workers and a synthesist, with the sample project's goal and TODO tasks. */
export function testRecipe(workers: number, wallClockMs = 10 * 60_000) {
  const parsed = parseRecipeValue("test recipe", {
    name: "e2e",
    description: "Workers claim tasks of the sample project; a synthesist reports.",
    roles: [
      {
        name: "worker",
        count: workers,
        tools: codeTools,
        instructions: "Claim one task, do it, merge, post what you learned.",
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
    budgets: { wallClockMs, tokensPerAgent: 100_000, kvCells: 32_768, steps: 40 },
    taskSources: ["goal", "todo-comments"],
    merge: true,
  });
  assert.ok(parsed.ok, "the test recipe parses");
  return parsed.recipe;
}

/** Polls `check` every 100 ms until it holds; the limit only turns a hang into a clear failure. */
export function until(check: () => boolean, what: string, ms = 500_000): Promise<void> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (check()) {
        clearInterval(timer);
        resolve();
      } else if (Date.now() > deadline) {
        clearInterval(timer);
        reject(new Error(`timed out waiting for ${what}`));
      }
    }, 100);
  });
}
