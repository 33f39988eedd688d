// The worker's end of the IPC channel to its parent (the extension host forks it), as a Transport.
// Node's `process.send` exists only in a process forked with an IPC channel; without one the worker has
// no one to serve, so it says so and refuses to start.
import type { Disposable } from "../core/disposable";
import type { Transport } from "../core/rpc/transport";

export class IpcTransport implements Transport {
  private readonly sendFn: NonNullable<typeof process.send>;

  constructor(private readonly onSendError: (err: Error) => void) {
    if (typeof process.send !== "function") {
      throw new Error(
        "The Swarmboard worker must be started by its parent with an IPC channel (child_process.fork); it cannot run on its own.",
      );
    }
    this.sendFn = process.send.bind(process);
  }

  send(message: unknown): void {
    if (!process.connected) return; // the parent is gone; main.ts exits on `disconnect`
    this.sendFn(message, undefined, undefined, (err: Error | null) => {
      if (err) this.onSendError(err);
    });
  }

  onMessage(listener: (message: unknown) => void): Disposable {
    const handler = (message: unknown) => listener(message);
    process.on("message", handler);
    return { dispose: () => process.off("message", handler) };
  }

  /** Calls `listener` once when the parent closes the channel (it exited, crashed, or disposed us). */
  onDisconnect(listener: () => void): Disposable {
    process.once("disconnect", listener);
    return { dispose: () => process.off("disconnect", listener) };
  }
}
