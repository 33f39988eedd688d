// Forks and supervises the worker process. The host never loads the model itself: a crash or a huge
// allocation in the worker must not take VS Code down, so the worker lives in its own process and the host
// only watches it. Supervision here is the basics: the state is observable, an exit is logged with its
// code, and requests still waiting when the worker dies fail with a clear error instead of hanging.
import { fork, type ChildProcess } from "node:child_process";
import * as vscode from "vscode";
import type { z } from "zod";
import type { MethodSpec, NotificationSpec } from "../protocol/envelope";
import type { WorkerStatus } from "../protocol/webviewMessages";
import { pingMethod, workerLogNotification, workerReadyNotification } from "../protocol/workerRpc";
import { RpcPeer } from "../core/rpc/rpcPeer";
import { ChildProcessTransport } from "./childProcessTransport";
import type { HostLog } from "./hostLog";

export type PingResult = z.output<typeof pingMethod.result>;

interface Running {
  child: ChildProcess;
  peer: RpcPeer;
}

export class WorkerProcess implements vscode.Disposable {
  private running: Running | undefined;
  private current: WorkerStatus = { state: "exited", reason: "not started yet" };
  private readonly stateEmitter = new vscode.EventEmitter<WorkerStatus>();
  readonly onDidChangeState = this.stateEmitter.event;
  private disposed = false;
  /** Notification listeners, attached to every worker this supervisor starts (they survive restarts). */
  private readonly notificationListeners: Array<(peer: RpcPeer) => void> = [];

  constructor(
    /** Absolute path of the bundled worker (dist/worker/main.js). */
    private readonly workerScript: string,
    private readonly log: HostLog,
  ) {}

  get state(): WorkerStatus {
    return this.current;
  }

  /** Starts the worker unless it is already running (also how an exited worker is restarted). */
  ensureStarted(): void {
    if (this.disposed) throw new Error("The Swarmboard worker supervisor was disposed; reload the window.");
    if (this.running) return;
    const child = fork(this.workerScript, [], {
      // No inherited --inspect flags (they would clash on the debug port) and plain Node under Electron.
      execArgv: [],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
      serialization: "json",
    });
    const transport = new ChildProcessTransport(child, (err) => this.log.warn(`worker: could not send: ${err.message}`));
    const peer = new RpcPeer(transport, {
      onViolation: (v) => this.log.warn(`worker sent a message that failed its schema and was dropped: ${v.reason}`),
    });
    peer.onNotification(workerReadyNotification, ({ pid, version }) => {
      this.log.info(`worker ready (pid ${pid}, version ${version})`);
      this.setState({ state: "ready", pid, version });
    });
    peer.onNotification(workerLogNotification, ({ level, message }) => this.log.log(level, `worker: ${message}`));
    for (const attach of this.notificationListeners) attach(peer);
    child.stdout?.setEncoding("utf8").on("data", (text: string) => this.logLines("info", text));
    child.stderr?.setEncoding("utf8").on("data", (text: string) => this.logLines("warn", text));
    child.on("error", (err) => this.log.error(`worker process error: ${err.message}`));
    child.on("exit", (code, signal) => this.onExit(child, peer, code, signal));
    this.running = { child, peer };
    this.log.info(`worker starting (pid ${child.pid ?? "?"}): ${this.workerScript}`);
    this.setState({ state: "starting" });
  }

  /** Sends a request to the worker, starting it first if needed. */
  request<P extends z.ZodType, R extends z.ZodType>(spec: MethodSpec<P, R>, params: z.input<P>, signal?: AbortSignal): Promise<z.output<R>> {
    this.ensureStarted();
    if (!this.running) throw new Error("The Swarmboard worker did not start.");
    return this.running.peer.request(spec, params, signal);
  }

  /** Listens for a notification from this and every later worker; the payload is parsed by its schema. */
  onNotification<P extends z.ZodType>(spec: NotificationSpec<P>, listener: (params: z.output<P>) => void): vscode.Disposable {
    let active = true;
    const attach = (peer: RpcPeer) => {
      peer.onNotification(spec, (params) => {
        if (active) listener(params);
      });
    };
    this.notificationListeners.push(attach);
    if (this.running) attach(this.running.peer);
    return new vscode.Disposable(() => {
      active = false;
      const at = this.notificationListeners.indexOf(attach);
      if (at >= 0) this.notificationListeners.splice(at, 1);
    });
  }

  ping(): Promise<PingResult> {
    return this.request(pingMethod, { nonce: `ping-${Date.now()}` });
  }

  /** Stops the worker (it also exits by itself when the IPC channel closes). */
  stop(reason: string): void {
    const running = this.running;
    if (!running) return;
    this.log.info(`stopping worker: ${reason}`);
    running.child.disconnect?.();
    running.child.kill();
  }

  private onExit(child: ChildProcess, peer: RpcPeer, code: number | null, signal: NodeJS.Signals | null): void {
    const how = signal ? `signal ${signal}` : `code ${code}`;
    const level = code === 0 || this.disposed ? "info" : "error";
    this.log.log(level, `worker (pid ${child.pid ?? "?"}) exited with ${how}`);
    peer.failPending({
      code: "worker-exited",
      message: `The Swarmboard worker exited (${how}) before answering. Run "Swarmboard: Check Worker" to start it again, and see the Swarmboard output for why it stopped.`,
    });
    peer.dispose();
    if (this.running?.child === child) this.running = undefined;
    this.setState({ state: "exited", reason: `exited with ${how}` });
  }

  private logLines(level: "info" | "warn", text: string): void {
    for (const line of text.split(/\r?\n/)) if (line.trim() !== "") this.log.log(level, `worker: ${line}`);
  }

  private setState(next: WorkerStatus): void {
    this.current = next;
    if (!this.disposed) this.stateEmitter.fire(next);
  }

  dispose(): void {
    if (this.disposed) return;
    this.stop("the extension is deactivating");
    this.disposed = true;
    this.stateEmitter.dispose();
  }
}
