// Starts code-server 4.100.3 (from test/host/code-server) as the real VS Code extension host of the host
// tests: on a free loopback port, no auth, with throwaway user-data, extensions and config folders, and with
// telemetry, update checks and workspace trust prompts off.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { stopServersIn } from "../serverFolder";

export interface CodeServer {
  readonly url: string;
  readonly port: number;
  readonly process: ChildProcess;
  /** Everything code-server printed, for the failure report. */
  output(): string;
  stop(): Promise<void>;
}

export function codeServerBinary(repoRoot: string): string {
  const bin = path.join(repoRoot, "test/host/code-server/node_modules/.bin/code-server");
  if (!existsSync(bin)) {
    throw new Error(
      `code-server is not installed (${bin} is missing). Run \`bash scripts/installCodeServer.sh\` first ` +
        "(it needs the apt packages chromium, libkrb5-dev and ripgrep).",
    );
  }
  return bin;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** User settings for the throwaway profile: nothing phones home, nothing pops up over the workbench. */
const userSettings = {
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "chat.commandCenter.enabled": false,
  "window.commandCenter": false,
};

/** What one session's code-server gets of its own. */
export interface SessionSetup {
  /** Names the session's runtime folder (short: the shared worker's socket path must stay under the OS limit). */
  readonly name: string;
  /** User settings over the runner's for this session (a suite about the private worker turns the shared one off). */
  readonly settings?: Readonly<Record<string, unknown>>;
}

/**
 * The runner's choice of worker: the shared one by default (as a person's window gets it);
 * SWARMBOARD_HOST_SHARED_WORKER=0 runs every suite on a private worker instead (the suites about the shared worker
 * turn it on themselves).
 */
function workerSettings(): Record<string, unknown> {
  return process.env.SWARMBOARD_HOST_SHARED_WORKER === "0" ? { "swarmboard.sharedWorker": false } : {};
}

export async function startCodeServer(repoRoot: string, scratch: string, session: SessionSetup): Promise<CodeServer> {
  const bin = codeServerBinary(repoRoot);
  const port = await freePort();
  const userData = path.join(scratch, "user-data");
  mkdirSync(path.join(userData, "User"), { recursive: true });
  // Written afresh for each session: a setting one session's suite changed does not reach the next.
  const settings = { ...userSettings, ...workerSettings(), ...session.settings };
  writeFileSync(path.join(userData, "User", "settings.json"), JSON.stringify(settings, null, 2));
  const extensions = path.join(scratch, "extensions");
  mkdirSync(extensions, { recursive: true });
  const config = path.join(scratch, "config.yaml");
  writeFileSync(config, "auth: none\ncert: false\n");
  const args = [
    "--auth",
    "none",
    "--bind-addr",
    `127.0.0.1:${port}`,
    "--config",
    config,
    "--user-data-dir",
    userData,
    "--extensions-dir",
    extensions,
    "--disable-telemetry",
    "--disable-update-check",
    "--disable-workspace-trust",
    "--disable-getting-started-override",
  ];
  // The shared worker's socket and token go in this session's own runtime folder: a session never attaches to a
  // server of the person's, of another run on the same machine, or of an earlier session of this run (its model
  // loads, clients and draining state would not be this session's).
  const runtimeDir = path.join(scratch, `run-${session.name}`);
  mkdirSync(runtimeDir, { recursive: true, mode: 0o700 });
  const env = { ...process.env, XDG_RUNTIME_DIR: runtimeDir };
  const child = spawn(bin, args, { cwd: scratch, stdio: ["ignore", "pipe", "pipe"], env });
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (t: string) => (output += t));
  child.stderr?.setEncoding("utf8").on("data", (t: string) => (output += t));
  const url = `http://127.0.0.1:${port}/`;
  await waitForHealthy(url, child, () => output);
  return {
    url,
    port,
    process: child,
    output: () => output,
    stop: async () => {
      await stopProcess(child);
      // The shared workers this session's windows started are detached and outlive code-server (one still running
      // a swarm would drain for minutes after a failed test): stopped, and waited for, before the next session.
      await stopServersIn(runtimeDir);
    },
  };
}

async function waitForHealthy(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`code-server exited with code ${child.exitCode} before it served:\n${output()}`);
    try {
      const res = await fetch(new URL("healthz", url));
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`code-server did not answer on ${url} within 60 s:\n${output()}`);
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

export function makeScratch(): string {
  return mkdtempSync(path.join(tmpdir(), "swarmboard-host-"));
}
