// A `swarmboard run --server` from the command line, beside the windows (issue 26: the CLI attaches to the same
// server as the windows). The bundled CLI runs as its own process with this host's environment, so its
// XDG_RUNTIME_DIR (the runner's, per run) names the windows' server. Its one agent posts, then asks a question and
// waits for the answer on stdin: the swarm stays live while the windows' swarms run, until the test answers.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TurnScript } from "../../../src/protocol/turnScript";
import { waitFor } from "./hostApi";
import { modelPath, repoRoot, sampleRepo } from "./reviewSwarmRun";

const askingRecipe = {
  name: "asking",
  description: "One worker that posts, asks, and posts again when answered.",
  roles: [{ name: "worker", count: 1, tools: ["post_finding", "ask_user"], instructions: "Ask." }],
  topology: { kind: "fanout" },
  visibility: "shared",
  budgets: { wallClockMs: 15 * 60_000, tokensPerAgent: 100_000, kvCells: 32_768, steps: 40 },
  taskSources: ["goal"],
  merge: false,
  verify: "off",
};

const askingScript: TurnScript = {
  agents: {
    "agent-1": [
      { tool: "post_finding", args: { kind: "OBSERVED", text: "the command line's swarm is live" } },
      { tool: "ask_user", args: { question: "Go on?" } },
      { tool: "post_finding", args: { kind: "OBSERVED", text: "answered from the command line" } },
      { tool: "finish", args: { summary: "asked and went on" } },
    ],
  },
};

export interface CliServerRun {
  /** The repository the command line's swarm works on. */
  readonly workspace: string;
  /** The swarm's id, once the CLI printed it (the server accepted the start). */
  readonly swarmId: () => string | undefined;
  /** Everything the CLI printed on stdout and stderr so far. */
  readonly output: () => string;
  /** Waits until the agent's question is asked (the swarm is running and waits for this test). */
  asked(limitMs: number): Promise<string>;
  /** Answers the question on the CLI's stdin, as a person at the terminal would. */
  answer(questionId: string, text: string): void;
  /** The CLI's exit code once it exited (0: the swarm completed); undefined while it runs. */
  exitCode(): number | null | undefined;
  /** Ends the CLI if it still runs (a failed test must not leave it waiting for its answer). */
  kill(): void;
}

export function startCliServerRun(): CliServerRun {
  const { root, repo } = sampleRepo("two-windows-cli");
  const recipe = path.join(root, "asking.json");
  const script = path.join(root, "asking-script.json");
  writeFileSync(recipe, JSON.stringify(askingRecipe));
  writeFileSync(script, JSON.stringify(askingScript));
  const stateDir = path.join(root, "state");
  const cli = path.join(repoRoot(), "dist", "cli", "main.js");
  const args = [cli, "run", "--server", "--plain", "--model", modelPath(), "--workspace", repo, "--recipe", recipe];
  args.push("--script", script, "--state-dir", stateDir, "--ask-user-timeout", "900", "--threads", "1");
  args.push("--goal", "Ask from the command line while the windows' swarms run");
  // The extension host's node (code-server's); ELECTRON_RUN_AS_NODE is what a desktop VS Code host would need.
  const child = spawn(process.execPath, args, {
    cwd: os.tmpdir(),
    env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let text = "";
  child.stdout.setEncoding("utf8").on("data", (t: string) => (text += t));
  child.stderr.setEncoding("utf8").on("data", (t: string) => (text += t));
  let exit: { code: number | null } | undefined;
  child.once("exit", (code) => (exit = { code }));
  return {
    workspace: repo,
    swarmId: () => /^swarm (\S+): state dir/m.exec(text)?.[1],
    output: () => text,
    asked: (limitMs) =>
      waitFor(
        "the command line's agent to ask",
        () => {
          if (child.exitCode !== null) throw new Error(`the CLI exited (${child.exitCode}) before asking:\n${text}`);
          return /asks you \((question-\d+)/.exec(text)?.[1];
        },
        limitMs,
      ),
    answer: (questionId, answer) => child.stdin.write(`@answer ${questionId} ${answer}\n`),
    exitCode: () => exit?.code,
    kill: () => {
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}

/** A process's peak resident memory so far (VmHWM in /proc/<pid>/status: Linux only), in bytes. */
export function peakRss(pid: number): number {
  const kib = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  if (kib === undefined) throw new Error(`no VmHWM line for pid ${pid}`);
  return Number(kib) * 1024;
}
