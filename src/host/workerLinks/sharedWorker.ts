// The user's shared worker, reached from this window: connect to its socket (start it, detached, when nothing
// listens), say hello with the user's token, then serve the supervisor's peer. Requests made while connecting wait
// in order; a connection that fails or closes ends the link like an exit, so the supervisor's restart budget applies
// (and the next connect starts one server for the machine: the server's start lock lets only one start).
import { spawn } from "node:child_process";
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import type { Disposable } from "../../core/disposable";
import { LineTransport } from "../../core/rpc/lineTransport";
import { RpcPeer } from "../../core/rpc/rpcPeer";
import type { Transport } from "../../core/rpc/transport";
import { serverPaths, type ServerPaths } from "../../core/server/serverPaths";
import {
  awaitStartedServer,
  ServerStartError,
  startedServer,
  type StartedServer,
} from "../../core/server/startedServer";
import { helloMethod } from "../../protocol/serverRpc";
import type { LinkLog, WorkerEnd, WorkerLink } from "./workerLink";

/** How long a window waits for a server it started to listen (it loads node-llama-cpp's bindings first). */
const serverStartMs = 120_000;

export function sharedServerPaths(version: string): ServerPaths {
  return serverPaths(
    {
      platform: process.platform,
      uid: typeof process.getuid === "function" ? process.getuid() : -1,
      userName: os.userInfo().username,
      runtimeDir: process.env.XDG_RUNTIME_DIR,
      homeDir: os.homedir(),
      tmpDir: os.tmpdir(),
    },
    version,
  );
}

/**
 * The peer's transport over a connection that must say hello first: received messages go straight to the peer; sent
 * ones wait (in order) until the hello is answered, except the hello itself.
 */
class HelloFirstTransport implements Transport {
  private target: Transport | undefined;
  private open = false;
  private readonly queued: unknown[] = [];
  private readonly listeners = new Set<(message: unknown) => void>();

  send(message: unknown): void {
    const isHello = (message as { method?: unknown }).method === helloMethod.method;
    if (this.target && (this.open || isHello)) this.target.send(message);
    else this.queued.push(message);
  }

  onMessage(listener: (message: unknown) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  connect(target: Transport): void {
    target.onMessage((m) => this.listeners.forEach((l) => l(m)));
    this.target = target;
  }

  /** The hello was answered: everything that waited goes out, in order. */
  openGate(): void {
    this.open = true;
    for (const m of this.queued.splice(0))
      if ((m as { method?: unknown }).method !== helloMethod.method) this.target?.send(m);
  }
}

function connectOnce(socketPath: string): Promise<net.Socket | undefined> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    socket.once("connect", () => resolve(socket));
    socket.once("error", (err: NodeJS.ErrnoException) =>
      err.code === "ENOENT" || err.code === "ECONNREFUSED" ? resolve(undefined) : reject(err),
    );
  });
}

/** Starts `--serve` detached (its output appended to a log beside the socket); several windows may race: one wins. */
function startServer(workerScript: string, paths: ServerPaths, log: LinkLog): StartedServer {
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  const out = openSync(paths.logFile, "a", 0o600);
  const from = fstatSync(out).size;
  try {
    const child = spawn(process.execPath, [workerScript, "--serve"], {
      detached: true,
      stdio: ["ignore", out, out],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" },
    });
    child.unref();
    log.log("info", `starting the shared worker (pid ${child.pid ?? "?"}) on ${paths.socket}`);
    return startedServer(child, process.execPath, () => readFileSync(paths.logFile).subarray(from).toString("utf8"));
  } finally {
    closeSync(out);
  }
}

async function connectOrStart(workerScript: string, paths: ServerPaths, log: LinkLog): Promise<net.Socket> {
  const first = await connectOnce(paths.socket);
  if (first) return first;
  return awaitStartedServer({
    started: startServer(workerScript, paths, log),
    connect: () => connectOnce(paths.socket),
    socket: paths.socket,
    logFile: paths.logFile,
    limitMs: serverStartMs,
  });
}

export function connectSharedWorker(workerScript: string, version: string, log: LinkLog): WorkerLink {
  const paths = sharedServerPaths(version);
  const gate = new HelloFirstTransport();
  const peer = new RpcPeer(gate, {
    onViolation: (v) => log.log("warn", `worker sent a message that failed its schema and was dropped: ${v.reason}`),
  });
  const ended: Array<(end: WorkerEnd) => void> = [];
  let socket: net.Socket | undefined;
  let pid: number | undefined;
  let over = false;
  const end = (how: string, startFailed?: string) => {
    if (over) return;
    over = true;
    socket?.destroy();
    for (const listener of ended.splice(0))
      listener({ code: null, signal: null, how, ...(startFailed !== undefined ? { startFailed } : {}) });
  };
  void (async () => {
    socket = await connectOrStart(workerScript, paths, log);
    socket.setEncoding("utf8");
    socket.on("error", (err) => log.log("warn", `shared worker connection: ${err.message}`));
    socket.on("close", () => end("the shared worker closed the connection"));
    gate.connect(new LineTransport(socket, { onViolation: (reason) => log.log("warn", `shared worker: ${reason}`) }));
    const token = readFileSync(paths.tokenFile, "utf8").trim();
    const hello = await peer.request(helloMethod, { token, version, client: "vscode", pid: process.pid });
    pid = hello.pid;
    log.log("info", `attached to the shared worker (pid ${hello.pid}) as client ${hello.clientId}`);
    gate.openGate();
  })().catch((err: Error) =>
    end(
      `could not reach the shared worker: ${err.message}`,
      err instanceof ServerStartError ? err.headline : undefined,
    ),
  );
  return {
    kind: "shared",
    peer,
    get pid() {
      return pid;
    },
    onEnded(listener) {
      if (over) listener({ code: null, signal: null, how: "ended" });
      else ended.push(listener);
    },
    close() {
      end("this window closed its connection");
    },
  };
}
