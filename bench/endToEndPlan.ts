// The recorded work of `bench:router --end-to-end`: a stream of N triggers (compiler errors and failing tests, each
// a task of its own) and the forced calls that do each task the same way in both arms (claim, read, write, commit,
// report, with W words of thinking standing in for the model's work), as the router's, each worker's and the one
// agent's turn scripts. Both arms force the same tokens per task, so they differ only in who does the work when.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { TriggerInput } from "../src/protocol/triggers";
import type { ScriptedCall, TurnScript } from "../src/protocol/turnScript";

/** The trigger of task `i` (0-based): diagnostics and test failures by turns, one second apart. */
export function streamTrigger(i: number, start: number): TriggerInput {
  const id = `t-${String(i + 1).padStart(3, "0")}`;
  return i % 2 === 0
    ? {
        id,
        source: "diagnostic",
        severity: "error",
        path: `src/module${i}.js`,
        line: 3,
        text: `TS2345: Argument of type 'string | undefined' is not assignable (module ${i})`,
        time: start + i * 1000,
      }
    : {
        id,
        source: "test-failure",
        test: `module ${i} parses nested blocks`,
        text: `AssertionError: expected 3 nodes, got 2 (module ${i})`,
        time: start + i * 1000,
      };
}

/** Thinking of about `words` words: the stand-in for the tokens a model writes while it works out a task. */
function thinking(words: number, what: string): string {
  const line = `Reading ${what}: the failing call passes a value that may be undefined, so guard it first. `;
  const perLine = line.split(" ").length;
  return line.repeat(Math.max(1, Math.ceil(words / perLine))).trim();
}

/** One task's calls: `note` is the file its work writes (one per task, so parallel merges never meet). */
export function taskCalls(note: string, what: string, words: number): ScriptedCall[] {
  return [
    { tool: "claim", args: { scope: { paths: [note] }, text: `fix ${what}` }, think: thinking(words, what) },
    { tool: "read_file", args: { path: "src/stats.js" } },
    { tool: "write_file", args: { path: note, content: `# ${what}\n\nGuarded the undefined value.\n` } },
    { tool: "commit", args: { message: `Fix ${what}` } },
    { tool: "post_finding", args: { kind: "PATCH_SUMMARY", text: `fixed ${what}` } },
  ];
}

/** The standing swarm's script: the router (agent-1) waits, assigns each trigger, waits; workers agent-2... */
export function standingScript(ids: readonly string[], words: number): TurnScript {
  const wait = { tool: "wait_for_triggers", args: {} };
  const assign = (id: string) => ({ tool: "assign_task", args: { trigger: id, task: `fix ${id}` } });
  const agents: Record<string, ScriptedCall[]> = { "agent-1": [wait, ...ids.map(assign), wait] };
  // Which worker takes which trigger depends on the order seats free; each writes its own note.
  for (let n = 2; n < ids.length + 2; n++) {
    const id = `agent-${n}`;
    agents[id] = [...taskCalls(`notes/${id}.md`, `the task of ${id}`, words), finish];
  }
  return { agents };
}

const finish = { tool: "finish", args: { summary: "done" } };

/** The ablation's script: one agent does every task in arrival order, then finishes. */
export function oneAgentScript(ids: readonly string[], words: number): TurnScript {
  return { agents: { "agent-1": [...ids.flatMap((id) => taskCalls(`notes/${id}.md`, id, words)), finish] } };
}

/** The one agent's recipe: the workers' tools that the tasks use, enough steps and tokens for all of them. */
export function oneAgentRecipe(tasks: number): object {
  return {
    name: "one-agent",
    description: "One agent does every task of the stream, in order (the ablation of router + workers).",
    roles: [
      {
        name: "worker",
        count: 1,
        tools: ["claim", "read_file", "write_file", "commit", "post_finding"],
        instructions: "Do each task in order.",
      },
    ],
    topology: { kind: "fanout" },
    visibility: "shared",
    budgets: { wallClockMs: 3_600_000, tokensPerAgent: 4_000 * tasks + 16_384, steps: 6 * tasks + 10 },
    taskSources: ["goal"],
  };
}

/** A small repository to work on, committed on main. */
export function makeBenchRepo(root: string): string {
  const workspace = path.join(root, "workspace");
  mkdirSync(path.join(workspace, "src"), { recursive: true });
  writeFileSync(
    path.join(workspace, "src", "stats.js"),
    "export const mean = (xs) => xs.reduce((a, b) => a + b) / xs.length;\n",
  );
  writeFileSync(path.join(workspace, "README.md"), "# bench\n");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: workspace, stdio: "pipe" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", "commit", "-qm", "start");
  return workspace;
}
