// The built CLI as a child process with stdin open (steering lines), its output so far and its exit: what the swarm
// tests that talk to a running `swarmboard run` or `watch` (answers, triggers, Ctrl-C) start it with.
import { spawn } from "node:child_process";
import path from "node:path";
import { repoRoot } from "./swarmFixtures";

export const cliPath = path.join(repoRoot(), "dist/cli/main.js");

export function startCli(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(process.execPath, [cliPath, ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
  const out = { stdout: "", stderr: "" };
  child.stdout.on("data", (c: Buffer) => (out.stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (out.stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, out, exited };
}
