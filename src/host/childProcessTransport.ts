// The host's end of the IPC channel to the worker: a Transport over a forked ChildProcess.
// It only moves values; RpcPeer parses them. Sending after the channel closed is dropped (the peer's
// pending requests are failed by the supervisor when the process exits, so nothing waits forever).
import type { ChildProcess } from "node:child_process";
import type { Disposable } from "../core/disposable";
import type { Transport } from "../core/rpc/transport";

export class ChildProcessTransport implements Transport {
  constructor(
    private readonly child: ChildProcess,
    private readonly onSendError: (err: Error) => void,
  ) {}

  send(message: unknown): void {
    if (!this.child.connected) {
      this.onSendError(new Error("the worker's IPC channel is closed"));
      return;
    }
    this.child.send(message as object, (err) => {
      if (err) this.onSendError(err);
    });
  }

  onMessage(listener: (message: unknown) => void): Disposable {
    const handler = (message: unknown) => listener(message);
    this.child.on("message", handler);
    return { dispose: () => this.child.off("message", handler) };
  }
}
