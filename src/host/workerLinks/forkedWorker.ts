// The private worker: a child process forked with an IPC channel, plain Node under Electron, no inherited
// --inspect flags. It exits when its channel closes, so a closed or crashed window never leaves it behind.
import { fork } from "node:child_process";
import { RpcPeer } from "../../core/rpc/rpcPeer";
import { forceStockRuntimeVariable } from "../../core/workerCrash";
import { ChildProcessTransport } from "../childProcessTransport";
import { logLines, type LinkLog, type WorkerEnd, type WorkerLink } from "./workerLink";

export function forkWorker(workerScript: string, stockRuntime: boolean, log: LinkLog): WorkerLink {
  const child = fork(workerScript, [], {
    execArgv: [],
    env: { ...process.env, ELECTRON_RUN_AS_NODE: "1", ...(stockRuntime ? { [forceStockRuntimeVariable]: "1" } : {}) },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    serialization: "json",
  });
  const transport = new ChildProcessTransport(child, (err) =>
    log.log("warn", `worker: could not send: ${err.message}`),
  );
  const peer = new RpcPeer(transport, {
    onViolation: (v) => log.log("warn", `worker sent a message that failed its schema and was dropped: ${v.reason}`),
  });
  child.stdout?.setEncoding("utf8").on("data", (text: string) => logLines(log, "info", text));
  child.stderr?.setEncoding("utf8").on("data", (text: string) => logLines(log, "warn", text));
  child.on("error", (err) => log.log("error", `worker process error: ${err.message}`));
  return {
    kind: "private",
    peer,
    get pid() {
      return child.pid;
    },
    onEnded(listener: (end: WorkerEnd) => void) {
      child.once("exit", (code, signal) =>
        listener({ code, signal, how: signal ? `signal ${signal}` : `code ${code}` }),
      );
    },
    close() {
      child.disconnect?.();
      child.kill();
    },
  };
}
