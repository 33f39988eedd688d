// What the shared-worker host suites share: the version the bundle runs (the server only serves its own), a direct
// connection to the server as a test client, and a way to put the window on the shared worker or back.
import { readFileSync } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import { connectToServer } from "../../../src/cli/serverConnection";
import { serverStatusMethod, serverStopMethod, type ServerStatus } from "../../../src/protocol/serverRpc";
import type { SwarmboardTestHooks } from "../../../src/host/testHooks";
import { waitFor } from "./hostApi";

/** The version stamped into the bundle the host runs (tests compiled by tsc see "dev"). */
export const bundleVersion: string = JSON.parse(
  readFileSync(path.resolve(__dirname, "../../../../package.json"), "utf8"),
).version;

/** The server's own status, asked on a connection of its own (as `swarmboard serve --status` does). */
export async function serverStatus(): Promise<ServerStatus> {
  const direct = await connectToServer("test", bundleVersion);
  try {
    return await direct.peer.request(serverStatusMethod, {});
  } finally {
    direct.close();
  }
}

/** How many times this window attached to the shared worker, from its log. */
export function attachCount(hooks: SwarmboardTestHooks): number {
  return hooks.log.recentLines().filter((l) => l.includes("attached to the shared worker")).length;
}

/** Turns `swarmboard.sharedWorker` on, restarts the worker onto it and waits until it is ready; resolves with its pid. */
export async function attachShared(hooks: SwarmboardTestHooks): Promise<number> {
  const before = attachCount(hooks);
  await vscode.workspace.getConfiguration("swarmboard").update("sharedWorker", true, vscode.ConfigurationTarget.Global);
  await vscode.commands.executeCommand("swarmboard.restartWorker");
  await waitFor("the window to attach to the shared worker", () => attachCount(hooks) > before, 180_000);
  const ready = await waitFor(
    "the shared worker ready",
    () => (hooks.worker.state.state === "ready" ? hooks.worker.state : undefined),
    60_000,
  );
  return ready.pid;
}

/** Back to a private worker for the suites after, and the server stopped (it would linger 10 idle minutes). */
export async function leaveShared(): Promise<void> {
  await vscode.workspace
    .getConfiguration("swarmboard")
    .update("sharedWorker", undefined, vscode.ConfigurationTarget.Global);
  await vscode.commands.executeCommand("swarmboard.restartWorker");
  const connection = await connectToServer("test", bundleVersion).catch(() => undefined);
  if (connection) {
    await connection.peer.request(serverStopMethod, {}).catch(() => undefined);
    connection.close();
  }
}
