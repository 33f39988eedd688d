// One `swarmboard serve` process of the server bench: started from dist/ with a runtime folder of its own (so two of
// them are two workers, each with its own socket, token and model), one client connection that launches swarms and
// keeps every event they send, and what the kernel says of the process (peak RSS, CPU time) before it is stopped.
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from "node:fs";
import path from "node:path";
import { connectToServer, type ServerConnection } from "../src/cli/serverConnection";
import { serverStatusMethod, serverStopMethod, type ServerStatus } from "../src/protocol/serverRpc";
import type { SwarmEvent } from "../src/protocol/swarmEvents";
import { startSwarmMethod, swarmEventsNotification, type StartSwarmParams } from "../src/protocol/swarmRpc";
import { thisMachinePaths } from "../src/worker/server/serverFiles";

/** The worker loads node-llama-cpp's bindings before it listens: tens of seconds on a busy machine. */
const listenMs = 180_000;

/** Polls `check` every 100 ms until it holds; the limit turns a hang into a clear error. */
export async function until(check: () => boolean, what: string, ms = 900_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`server bench: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A field of /proc/<pid>/status in bytes (VmHWM: the peak resident set), or 0 where there is no /proc. */
function procStatusBytes(pid: number, field: string): number {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return 0;
  const line = readFileSync(file, "utf8").match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
  return line ? Number(line[1]) * 1024 : 0;
}

/** User plus system CPU time of the process so far, in ms (clock ticks are 1/100 s on Linux). */
function cpuMs(pid: number): number {
  const file = `/proc/${pid}/stat`;
  if (!existsSync(file)) return 0;
  const fields = readFileSync(file, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export class BenchServer {
  /** Every event of every swarm launched here, by swarm id. */
  readonly events = new Map<string, SwarmEvent[]>();

  private constructor(
    readonly label: string,
    private readonly child: ChildProcess,
    private readonly connection: ServerConnection,
  ) {
    connection.peer.onNotification(swarmEventsNotification, ({ swarmId, events }) => {
      const list = this.events.get(swarmId) ?? [];
      list.push(...events);
      this.events.set(swarmId, list);
    });
  }

  /** Starts a server in `runtimeDir` (its XDG_RUNTIME_DIR) and connects to it once it listens. */
  static async start(label: string, script: string, version: string, runtimeDir: string): Promise<BenchServer> {
    mkdirSync(runtimeDir, { recursive: true, mode: 0o700 });
    const log = openSync(path.join(runtimeDir, `${label}.log`), "a");
    const env = { ...process.env, XDG_RUNTIME_DIR: runtimeDir };
    const child = spawn(process.execPath, [script, "--serve", "--idle-minutes", "0"], {
      env,
      stdio: ["ignore", log, log],
    });
    closeSync(log);
    const exited = () => child.exitCode !== null || child.signalCode !== null;
    const socket = thisMachinePaths(version, env).socket;
    await until(() => existsSync(socket) || exited(), `${label}'s socket`, listenMs);
    if (exited()) throw new Error(`server bench: ${label} exited before it listened (its log: ${runtimeDir})`);
    // connectToServer finds the socket through this process's XDG_RUNTIME_DIR, read when it is called.
    const saved = process.env.XDG_RUNTIME_DIR;
    process.env.XDG_RUNTIME_DIR = runtimeDir;
    try {
      return new BenchServer(label, child, await connectToServer("cli", version));
    } finally {
      if (saved === undefined) delete process.env.XDG_RUNTIME_DIR;
      else process.env.XDG_RUNTIME_DIR = saved;
    }
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Launches a swarm; `launchedAt` is when the request left (the time the person pressed Launch). */
  async launch(params: StartSwarmParams): Promise<{ swarmId: string; launchedAt: number }> {
    const launchedAt = Date.now();
    const { swarmId } = await this.connection.peer.request(startSwarmMethod, params);
    if (!this.events.has(swarmId)) this.events.set(swarmId, []);
    return { swarmId, launchedAt };
  }

  eventsOf(swarmId: string): readonly SwarmEvent[] {
    return this.events.get(swarmId) ?? [];
  }

  status(): Promise<ServerStatus> {
    return this.connection.peer.request(serverStatusMethod, {});
  }

  /** The kernel's figures of the live process: peak resident set (VmHWM) and CPU time. */
  processFigures(): { peakRssBytes: number; cpuMs: number } {
    return { peakRssBytes: procStatusBytes(this.pid, "VmHWM"), cpuMs: cpuMs(this.pid) };
  }

  /** Asks it to stop (no swarm runs by now), and kills it if it has not exited within 10 s. */
  async stop(): Promise<void> {
    const exit = new Promise<void>((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) resolve();
      else this.child.once("exit", () => resolve());
    });
    await this.connection.peer.request(serverStopMethod, {}).catch(() => undefined);
    this.connection.close();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 10_000);
    await exit;
    clearTimeout(timer);
  }
}
