// Before the workbench starts: a real swarm run by the CLI in the workspace's repository, so the host that then
// starts has never seen it run. That is what a reloaded or restarted window meets (a window reload cannot be done
// from inside the test's own extension host): the pastSwarms suite asserts the fresh host lists it from the
// repository's history, reviews its branch and cleans it up. The swarm's id reaches the suite through the
// environment code-server passes on to the extension host.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export const pastSwarmIdVariable = "SWARMBOARD_TEST_PAST_SWARM";
export const pastSwarmStateVariable = "SWARMBOARD_TEST_PAST_STATE";

/** The file the past swarm's agent writes on its own branch (never merged into the user's branch). */
export const pastSwarmFile = "src/range.js";

const recipe = {
  name: "past",
  description: "One worker that writes a file on its branch and posts a finding.",
  roles: [
    {
      name: "worker",
      count: 1,
      tools: ["post_finding", "write_file", "commit"],
      instructions: "Write the file, commit it, say what you found.",
    },
  ],
  topology: { kind: "fanout" },
  visibility: "shared",
  budgets: { wallClockMs: 10 * 60_000, tokensPerAgent: 100_000, kvCells: 32_768, steps: 40 },
  taskSources: ["goal"],
  merge: false,
};

const script = {
  agents: {
    "agent-1": [
      {
        tool: "post_finding",
        args: { kind: "FACT", text: "range is missing from stats", refs: [{ path: "src/stats.js", line: 1 }] },
      },
      {
        tool: "write_file",
        args: {
          path: pastSwarmFile,
          content: "function range(values) {\n  return Math.max(...values) - Math.min(...values);\n}\n",
        },
      },
      { tool: "commit", args: { message: "Add range" } },
      { tool: "finish", args: { summary: "range on its branch" } },
    ],
  },
};

/** Whether the suites this run selects (SWARMBOARD_HOST_ONLY) include the past swarms suite. */
export function wantsPastSwarm(): boolean {
  const only = (process.env.SWARMBOARD_HOST_ONLY ?? "").split(",").filter((p) => p !== "");
  return only.length === 0 || only.some((p) => "pastSwarms.test.js".startsWith(p));
}

/** Runs the swarm to its end with the CLI and returns its id (read from the inputs it saved). */
export function recordPastSwarm(repoRoot: string, workspace: string, scratch: string): string {
  const cli = path.join(repoRoot, "dist", "cli", "main.js");
  const model = path.join(
    process.env.SWARMBOARD_MODELS_DIR ?? path.join(repoRoot, "..", "shared", "models"),
    "stories260K.gguf",
  );
  for (const file of [cli, model]) if (!existsSync(file)) throw new Error(`past swarm setup: ${file} is missing`);
  const dir = path.join(scratch, "past-swarm");
  const stateDir = path.join(dir, "state");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "recipe.json"), JSON.stringify(recipe));
  writeFileSync(path.join(dir, "script.json"), JSON.stringify(script));
  const args = [cli, "run", "--goal", "Add a range function", "--recipe", path.join(dir, "recipe.json")];
  args.push("--model", model, "--workspace", workspace, "--state-dir", stateDir, "--threads", "1", "--plain");
  // In its own process (--no-server): a run that has ended with its process, as a window meets it later.
  args.push("--script", path.join(dir, "script.json"), "--no-server");
  execFileSync(process.execPath, args, { cwd: workspace, stdio: "pipe", timeout: 300_000 });
  const saved = JSON.parse(readFileSync(path.join(stateDir, "settings.json"), "utf8")) as { swarmId?: string };
  if (!saved.swarmId) throw new Error(`past swarm setup: ${stateDir}/settings.json names no swarm id`);
  process.env[pastSwarmIdVariable] = saved.swarmId;
  process.env[pastSwarmStateVariable] = stateDir;
  return saved.swarmId;
}
