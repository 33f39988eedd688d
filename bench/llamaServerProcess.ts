// A real llama-server on loopback for the remote engine's tests and the benchmark's remote arm: the binary
// scripts/buildLlamaServer.mjs builds and caches (or SWARMBOARD_LLAMA_SERVER), a model, a free port. A missing
// binary is an error that gives the command that builds it. `kill` is a SIGKILL (a crash, not a shutdown); `start` again brings
// the same server back on the same port.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

/** The repository root, found from this file whether it runs from bench/, out/bench/ or dist/bench/. */
function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, "CONTRIBUTING.md"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the repository root above ${__dirname}`);
    dir = parent;
  }
  return dir;
}

export function llamaServerBinary(): string {
  const given = process.env.SWARMBOARD_LLAMA_SERVER;
  if (given) {
    if (!existsSync(given)) throw new Error(`SWARMBOARD_LLAMA_SERVER=${given} does not exist`);
    return given;
  }
  const script = path.join(repoRoot(), "scripts", "buildLlamaServer.mjs");
  const found = spawnSync(process.execPath, [script, "--print-path"], { encoding: "utf8" });
  if (found.status !== 0) {
    throw new Error(
      `no llama-server built for this machine: run \`node scripts/buildLlamaServer.mjs\` (CI's setup does). ${found.stderr}`,
    );
  }
  return found.stdout.trim().split("\n").at(-1)!;
}

/**
 * llama-server is built -march=native, so on a CPU that reports AMX it compiles ggml's AMX kernels, and on KVM guests
 * (this project's CI machines) their first matmul of a quantised model crashes (SIGSEGV in ggml_backend_amx_mul_mat,
 * seen 2026-12-03). `--no-repack` keeps weights out of the AMX buffer; the portable runtime leaves its AMX variant
 * out for the same reason (scripts/runtimeBuildFlavor.mjs). Elsewhere the server repacks as it does by default.
 */
function cpuReportsAmx(): boolean {
  if (!existsSync("/proc/cpuinfo")) return false;
  return /^flags\s*:.*\bamx_tile\b/m.test(readFileSync("/proc/cpuinfo", "utf8"));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface LlamaServerOptions {
  readonly modelPath: string;
  /** Parallel slots (-np) and the whole context (-c), shared by the slots with --kv-unified. */
  readonly slots: number;
  readonly contextCells: number;
  readonly alias?: string;
  readonly threads?: number;
  /** One KV pool for all slots (the default, --kv-unified) or one stream per slot (--no-kv-unified). */
  readonly unified?: boolean;
}

export class LlamaServerProcess {
  private child: ChildProcess | undefined;
  private log = "";

  private constructor(
    readonly port: number,
    private readonly options: LlamaServerOptions,
  ) {}

  static async start(options: LlamaServerOptions): Promise<LlamaServerProcess> {
    const server = new LlamaServerProcess(await freePort(), options);
    await server.start();
    return server;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The server's own output so far (for a failing test's message). */
  get output(): string {
    return this.log.slice(-4000);
  }

  async start(): Promise<void> {
    const { modelPath, slots, contextCells, alias, threads, unified } = this.options;
    const args = ["-m", modelPath, "--host", "127.0.0.1", "--port", String(this.port), "-np", String(slots)];
    args.push("-c", String(contextCells), unified === false ? "--no-kv-unified" : "--kv-unified");
    args.push("-t", String(threads ?? 2), "--no-webui");
    if (alias) args.push("--alias", alias);
    if (cpuReportsAmx()) args.push("--no-repack");
    this.log = "";
    const child = spawn(llamaServerBinary(), args, { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (d: Buffer) => (this.log += d.toString()));
    child.stderr.on("data", (d: Buffer) => (this.log += d.toString()));
    this.child = child;
    await this.waitHealthy(60_000);
  }

  /** SIGKILL: the engine dies mid-request, as a crashed or preempted server would. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child === undefined || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  async stop(): Promise<void> {
    await this.kill();
  }

  private async waitHealthy(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.child?.exitCode !== null && this.child?.exitCode !== undefined) {
        throw new Error(`llama-server exited with ${this.child.exitCode}: ${this.output}`);
      }
      const ok = await fetch(`${this.url}/health`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`llama-server did not become healthy within ${timeoutMs} ms: ${this.output}`);
  }
}
