// Starts and supervises this window's worker: a private child process, or (with `swarmboard.sharedWorker`) a
// connection to the user's shared worker, which outlives the window (src/host/workerLinks/). The host never loads
// the model itself: a crash or a huge
// allocation in the worker must not take VS Code down, so the worker lives in its own process and the host
// only watches it. The state is observable, an exit is logged with its code, requests still waiting when the
// worker dies fail with a clear error instead of hanging, and a worker that exits unasked is restarted at most
// 4 times in 3 minutes (RestartBudget); past that it stays stopped until the user restarts it. A worker killed by
// SIGILL is not one more crash: llama.cpp's binary is wrong for this CPU, so the next worker runs node-llama-cpp's
// official binaries in copy mode and the user is told why and what to do (classifyWorkerExit).
import * as vscode from "vscode";
import type { z } from "zod";
import type { MethodSpec, NotificationSpec } from "../protocol/envelope";
import type { WorkerStatus } from "../protocol/webviewMessages";
import { pingMethod, workerLogNotification, workerReadyNotification } from "../protocol/workerRpc";
import type { RpcPeer } from "../core/rpc/rpcPeer";
import { classifyWorkerExit } from "../core/workerCrash";
import { extensionVersion } from "../protocol/buildInfo";
import type { HostLog } from "./hostLog";
import { forkWorker } from "./workerLinks/forkedWorker";
import { connectSharedWorker } from "./workerLinks/sharedWorker";
import type { WorkerEnd, WorkerLink } from "./workerLinks/workerLink";
import { RestartBudget } from "./supervision/restartBudget";

export type PingResult = z.output<typeof pingMethod.result>;

/** How a worker link ended; `shared`: only this window's connection is known to have ended, not its swarms. */
export interface WorkerExit {
  readonly how: string;
  readonly shared: boolean;
  /** The supervisor leaves it stopped (it could not start, or crashed too often) until the person restarts it. */
  readonly leftStopped: boolean;
}

export class WorkerProcess implements vscode.Disposable {
  private running: WorkerLink | undefined;
  private current: WorkerStatus = { state: "exited", reason: "not started yet" };
  private readonly stateEmitter = new vscode.EventEmitter<WorkerStatus>();
  readonly onDidChangeState = this.stateEmitter.event;
  private disposed = false;
  /** Notification listeners, attached to every worker this supervisor starts (they survive restarts). */
  private readonly notificationListeners: Array<(peer: RpcPeer) => void> = [];
  private readonly restarts = new RestartBudget();
  /** Links the host itself closed: their end is not a crash. */
  private readonly stopping = new WeakSet<WorkerLink>();
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly gaveUpEmitter = new vscode.EventEmitter<string>();
  /** Fires with the reason when the worker crashed too often and is left stopped. */
  readonly onDidGiveUp = this.gaveUpEmitter.event;
  /** Set after the patched runtime died with SIGILL: later workers run the official binaries (copy mode). */
  private onStockRuntime = false;
  private readonly exitEmitter = new vscode.EventEmitter<WorkerExit>();
  /** Fires whenever a worker process ends (asked or not), with how it ended. */
  readonly onDidExit = this.exitEmitter.event;

  constructor(
    /** Absolute path of the bundled worker (dist/worker/main.js). */
    private readonly workerScript: string,
    private readonly log: HostLog,
    /** Whether to attach to the user's shared worker (`swarmboard.sharedWorker`) instead of forking a private one. */
    private readonly useShared: () => boolean = () => false,
  ) {}

  get state(): WorkerStatus {
    return this.current;
  }

  /** Starts the worker unless it is already running (also how an exited worker is restarted). */
  ensureStarted(): void {
    if (this.disposed) throw new Error("The Swarmboard worker supervisor was disposed; reload the window.");
    if (this.running) return;
    const link = this.useShared()
      ? connectSharedWorker(this.workerScript, extensionVersion, this.log)
      : forkWorker(this.workerScript, this.onStockRuntime, this.log);
    const peer = link.peer;
    peer.onNotification(workerReadyNotification, ({ pid, version }) => {
      this.log.info(`worker ready (pid ${pid}, version ${version})`);
      this.setState({ state: "ready", pid, version });
    });
    peer.onNotification(workerLogNotification, ({ level, message }) => this.log.log(level, `worker: ${message}`));
    for (const attach of this.notificationListeners) attach(peer);
    link.onEnded((end) => this.onExit(link, end));
    this.running = link;
    this.log.info(
      link.kind === "shared"
        ? `attaching to the shared worker: ${this.workerScript} --serve`
        : `worker starting (pid ${link.pid ?? "?"}): ${this.workerScript}`,
    );
    this.setState({ state: "starting" });
  }

  /** Sends a request to the worker, starting it first if needed. */
  request<P extends z.ZodType, R extends z.ZodType>(
    spec: MethodSpec<P, R>,
    params: z.input<P>,
    signal?: AbortSignal,
  ): Promise<z.output<R>> {
    this.ensureStarted();
    if (!this.running) throw new Error("The Swarmboard worker did not start.");
    return this.running.peer.request(spec, params, signal);
  }

  /** Listens for a notification from this and every later worker; the payload is parsed by its schema. */
  onNotification<P extends z.ZodType>(
    spec: NotificationSpec<P>,
    listener: (params: z.output<P>) => void,
  ): vscode.Disposable {
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

  /** The user's restart: a new worker, and the crash count starts again. */
  restart(reason: string): void {
    this.restarts.reset();
    // The user may have installed a runtime that fits this CPU since: try the patched one again.
    this.onStockRuntime = false;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    if (this.running) {
      this.running.onEnded(() => this.ensureStarted());
      this.stop(reason);
    } else this.ensureStarted();
  }

  /** Whether this window is attached to the user's shared worker (which also runs other clients' swarms). */
  get shared(): boolean {
    return this.running?.kind === "shared";
  }

  /** The pid of the running worker (tests kill it to exercise supervision). */
  get pid(): number | undefined {
    return this.running?.pid;
  }

  /** Stops the worker (it also exits by itself when the IPC channel closes). */
  stop(reason: string): void {
    const running = this.running;
    if (!running) return;
    this.stopping.add(running);
    this.log.info(`${running.kind === "shared" ? "detaching from the shared worker" : "stopping worker"}: ${reason}`);
    running.close();
  }

  private onExit(link: WorkerLink, { code, signal, how, startFailed }: WorkerEnd): void {
    const peer = link.peer;
    const level = code === 0 || this.disposed ? "info" : "error";
    const who = link.kind === "shared" ? "connection to the shared worker" : "worker";
    this.log.log(level, `${who} (pid ${link.pid ?? "?"}) ${link.kind === "shared" ? "ended:" : "exited with"} ${how}`);
    const crash = this.disposed ? { kind: "crash" as const } : classifyWorkerExit(signal, this.onStockRuntime);
    peer.failPending({
      code: crash.kind === "crash" ? "worker-exited" : crash.kind,
      message:
        crash.kind === "crash"
          ? `The Swarmboard worker exited (${how}) before answering. Run "Swarmboard: Check Worker" to start it again, and see the Swarmboard output for why it stopped.`
          : crash.message,
    });
    peer.dispose();
    if (this.running === link) this.running = undefined;
    const crashed = !this.disposed && !this.stopping.has(link);
    // Decided before the exit is told: a listener that would ask the next worker something must not start one
    // the supervisor leaves stopped.
    const next: "exited" | "bad-binary" | "start-failed" | "restart" | "give-up" = !crashed
      ? "exited"
      : crash.kind !== "crash"
        ? "bad-binary"
        : startFailed !== undefined
          ? "start-failed"
          : this.restarts.take(Date.now())
            ? "restart"
            : "give-up";
    const leftStopped = next === "start-failed" || next === "give-up";
    if (!this.disposed)
      this.exitEmitter.fire({ how: `exited with ${how}`, shared: link.kind === "shared", leftStopped });
    if (next === "exited") this.setState({ state: "exited", reason: `exited with ${how}` });
    else if (next === "bad-binary" && crash.kind !== "crash") this.onBadBinary(crash.kind, crash.message);
    else if (next === "restart") this.restartSoon(how);
    else if (leftStopped)
      // A server that failed at its start (the log has its last lines) would fail the same way again.
      this.leaveStopped(
        next === "start-failed"
          ? `could not be started: ${startFailed}`
          : `crashed ${this.restarts.limit + 1} times in 3 minutes (last: ${how}); left stopped`,
      );
  }

  private restartSoon(how: string): void {
    this.log.warn(
      `restarting the worker (${this.restarts.used(Date.now())} of ${this.restarts.limit} restarts allowed in 3 minutes)`,
    );
    this.setState({ state: "exited", reason: `crashed (${how}); restarting` });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (!this.disposed && !this.running) this.ensureStarted();
    }, 500);
  }

  private leaveStopped(reason: string): void {
    this.log.error(`worker ${reason}`);
    this.setState({ state: "exited", reason });
    this.gaveUpEmitter.fire(reason);
  }

  /** SIGILL: the native runtime does not fit this CPU. Once onto the official binaries; if they die too, stop. */
  private onBadBinary(kind: "bad-binary" | "unsupported-cpu", message: string): void {
    this.log.error(message);
    void vscode.window.showErrorMessage(`Swarmboard: ${message}`);
    if (kind === "unsupported-cpu") {
      this.setState({ state: "exited", reason: "killed by SIGILL on the official binaries too; left stopped" });
      this.gaveUpEmitter.fire(message);
      return;
    }
    this.onStockRuntime = true;
    this.setState({ state: "exited", reason: "killed by SIGILL; restarting on the official binaries (copy mode)" });
    this.ensureStarted();
  }

  private setState(next: WorkerStatus): void {
    this.current = next;
    if (!this.disposed) this.stateEmitter.fire(next);
  }

  dispose(): void {
    if (this.disposed) return;
    this.stop("the extension is deactivating");
    this.disposed = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.stateEmitter.dispose();
    this.gaveUpEmitter.dispose();
    this.exitEmitter.dispose();
  }
}
