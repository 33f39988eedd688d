// The worker process: forked by the extension host, it owns the model and the swarm (src/worker/workerService.ts)
// and serves them over the envelope; it exits as soon as its parent goes away, so a crashed or closed VS Code
// never leaves a model-sized process behind.
import { pingMethod, workerLogNotification, workerReadyNotification } from "../protocol/workerRpc";
import { extensionVersion } from "../protocol/buildInfo";
import { DisposableStore } from "../core/disposable";
import { RpcPeer } from "../core/rpc/rpcPeer";
import { IpcTransport } from "./ipcTransport";
import { WorkerService } from "./workerService";

function main(): void {
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
      store.dispose();
      process.exit(0);
    }),
  );

  peer.notify(workerReadyNotification, { version: extensionVersion, pid: process.pid });
}

try {
  main();
} catch (err) {
  process.stderr.write(`swarmboard worker: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
