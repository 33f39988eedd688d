import type { Disposable } from "../disposable";

/**
 * A thin, interchangeable carrier of raw messages (IPC to the worker process, or in-process).
 * It moves values; the peer parses them. Nothing here trusts what it receives.
 */
export interface Transport {
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): Disposable;
}

/** Two transports wired to each other in one process: `swarmboard mcp` serves the worker's service so; tests too. */
export function createInProcessTransportPair(): [Transport, Transport] {
  const listeners: [Set<(m: unknown) => void>, Set<(m: unknown) => void>] = [new Set(), new Set()];
  const make = (self: 0 | 1): Transport => ({
    send(message) {
      // Round-trip through JSON, as IPC would, so tests see what a real boundary delivers.
      const copy: unknown = JSON.parse(JSON.stringify(message));
      queueMicrotask(() => listeners[1 - self].forEach((l) => l(copy)));
    },
    onMessage(listener) {
      listeners[self].add(listener);
      return { dispose: () => listeners[self].delete(listener) };
    },
  });
  return [make(0), make(1)];
}
