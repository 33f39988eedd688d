// The worker process, in one of two modes. Forked by the extension host or the CLI (an IPC channel): it owns the
// model and the swarms (src/worker/workerService.ts), serves them over the envelope to its parent, and exits as soon
// as its parent goes away, so a crashed or closed VS Code never leaves a model-sized process behind. Started with
// `--serve` (detached, by the first client that needs it): the user's shared worker on a local socket
// (src/worker/server/serveMain.ts), which outlives its clients and exits when idle.
import { pingMethod, workerLogNotification, workerReadyNotification } from "../protocol/workerRpc";
import { extensionVersion } from "../protocol/buildInfo";
import { DisposableStore } from "../core/disposable";
import { RpcPeer } from "../core/rpc/rpcPeer";
import { IpcTransport } from "./ipcTransport";
import { serve } from "./server/serveMain";
import { WorkerService } from "./workerService";

function servePrivately(): void {
  const store = new DisposableStore();
  const transport = new IpcTransport((err) => console.error(`swarmboard worker: send failed: ${err.message}`));
  const peer = store.add(
    new RpcPeer(transport, {
      onViolation: (v) =>
        peer.notify(workerLogNotification, { level: "warn", message: `worker refused a message: ${v.reason}` }),
    }),
  );

  store.add(new WorkerService(peer));
  store.add(
    peer.handle(pingMethod, ({ nonce }) => ({
      nonce,
      version: extensionVersion,
      pid: process.pid,
      node: process.version,
    })),
  );

  store.add(
    transport.onDisconnect(() => {
      // Exit in the same tick: the swarms end where they stand, so their traces read "interrupted" (resumable) and
      // no agent takes a step after its window left. Given time, the stop in dispose would end each swarm
      // "stopped", as if the person had stopped it, and its pending approvals "withdrawn"
      // (test/swarm/privateWorkerGone.test.ts).
      store.dispose();
      process.exit(0);
    }),
  );

  peer.notify(workerReadyNotification, { version: extensionVersion, pid: process.pid });
}

/** `--idle-minutes N` after `--serve`; the default gives the memory back after 10 quiet minutes. */
function idleMinutesArg(argv: readonly string[]): number {
  const at = argv.indexOf("--idle-minutes");
  if (at === -1) return 10;
  const value = Number(argv[at + 1]);
  if (!Number.isFinite(value) || value < 0) {
    throw new Error(`--idle-minutes takes a number of minutes (0: never stop when idle), not "${argv[at + 1]}".`);
  }
  return value;
}

async function main(argv: readonly string[]): Promise<void> {
  if (!argv.includes("--serve")) return servePrivately();
  const started = await serve({ idleMinutes: idleMinutesArg(argv) });
  if (started === "already-running") {
    process.stderr.write("swarmboard worker: a server of this version is already running for this user.\n");
    process.exit(0);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`swarmboard worker: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
