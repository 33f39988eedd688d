// The worker as a window's extension host forks it (src/host/workerProcess.ts): an IPC channel, no `--serve`, its
// events collected as they arrive; for the swarm tests that talk to a private worker over the host's own protocol.
import assert from "node:assert/strict";
import { fork, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { RpcPeer } from "../../src/core/rpc/rpcPeer";
import { ChildProcessTransport } from "../../src/host/childProcessTransport";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import { swarmEventsNotification } from "../../src/protocol/swarmRpc";
import { workerReadyNotification } from "../../src/protocol/workerRpc";
import { repoRoot } from "./swarmFixtures";

export interface ForkedWorker {
  readonly child: ChildProcess;
  readonly peer: RpcPeer;
  readonly events: SwarmEvent[];
}

/** Forks dist/worker/main.js and resolves once it says it is ready. */
export async function forkWorker(): Promise<ForkedWorker> {
  const script = path.join(repoRoot(), "dist", "worker", "main.js");
  assert.ok(existsSync(script), `${script} is missing: run npm run build first`);
  const child = fork(script, [], { stdio: ["ignore", "inherit", "inherit", "ipc"], serialization: "json" });
  const peer = new RpcPeer(new ChildProcessTransport(child, () => undefined));
  const events: SwarmEvent[] = [];
  peer.onNotification(swarmEventsNotification, ({ events: batch }) => events.push(...batch));
  await new Promise((resolve) => peer.onNotification(workerReadyNotification, resolve));
  return { child, peer, events };
}

/** The child's exit code, once it has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}
