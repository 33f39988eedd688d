// What the shared-worker host suites share: the version the bundle runs (the server only serves its own), a direct
// connection to the server as a test client, and a way to put the window on the shared worker or back.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as vscode from "vscode";
import { connectToServer } from "../../../src/cli/serverConnection";
import { serverStatusMethod, serverStopMethod, type ServerStatus } from "../../../src/protocol/serverRpc";
import type { SwarmboardTestHooks } from "../../../src/host/testHooks";
import { stopServersIn } from "../../serverFolder";
import { swarmboard, waitFor } from "./hostApi";

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

/** The setting as it was before attachShared (on by default; SWARMBOARD_HOST_SHARED_WORKER=0 turns it off for a run). */
let settingBefore: boolean | undefined;

/** Turns `swarmboard.sharedWorker` on, restarts the worker onto it and waits until it is ready; resolves with its pid. */
export async function attachShared(hooks: SwarmboardTestHooks): Promise<number> {
  const before = attachCount(hooks);
  const config = vscode.workspace.getConfiguration("swarmboard");
  settingBefore = config.inspect<boolean>("sharedWorker")?.globalValue;
  await config.update("sharedWorker", true, vscode.ConfigurationTarget.Global);
  await vscode.commands.executeCommand("swarmboard.restartWorker");
  await waitFor("the window to attach to the shared worker", () => attachCount(hooks) > before, 180_000);
  const ready = await waitFor(
    "the shared worker ready",
    () => (hooks.worker.state.state === "ready" ? hooks.worker.state : undefined),
    60_000,
  );
  return ready.pid;
}

/** The setting back as it was before attachShared (not merely unset: the suites after keep the runner's choice). */
export async function restoreSetting(): Promise<boolean> {
  await vscode.workspace
    .getConfiguration("swarmboard")
    .update("sharedWorker", settingBefore, vscode.ConfigurationTarget.Global);
  return vscode.workspace.getConfiguration("swarmboard").get<boolean>("sharedWorker") === true;
}

/** The setting as it was for the suites after; back on a private worker, the server is stopped (it would linger). */
export async function leaveShared(): Promise<void> {
  const stillShared = await restoreSetting();
  await vscode.commands.executeCommand("swarmboard.restartWorker");
  if (stillShared) return;
  const connection = await connectToServer("test", bundleVersion).catch(() => undefined);
  if (connection) {
    await connection.peer.request(serverStopMethod, {}).catch(() => undefined);
    connection.close();
  }
}

/**
 * For a suite about the private worker (one this window forks, kills and restarts): the setting off while it runs,
 * and back as it was after. On the shared worker, killing "the worker" would kill the server every client shares.
 */
export function usePrivateWorker(): void {
  const config = () => vscode.workspace.getConfiguration("swarmboard");
  let was: boolean | undefined;
  /** The setting to `value`, and a new worker (not the one the restart stops) ready under it. */
  const onto = async (value: boolean | undefined) => {
    const { hooks } = await swarmboard();
    const old = hooks.worker.state.state === "ready" ? hooks.worker.state.pid : undefined;
    await config().update("sharedWorker", value, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("swarmboard.restartWorker");
    await waitFor(
      "the restarted worker to be ready",
      () => (hooks.worker.state.state === "ready" && hooks.worker.state.pid !== old) || undefined,
      180_000,
    );
    return hooks;
  };
  before(async function () {
    this.timeout(240_000);
    was = config().inspect<boolean>("sharedWorker")?.globalValue;
    const hooks = await onto(false);
    assert.equal(hooks.worker.shared, false, "a private worker for this suite");
  });
  after(async function () {
    this.timeout(240_000);
    await onto(was);
  });
}

/**
 * For a suite that counts what its server did (its pid, its model loads): the window on a shared worker of the
 * suite's own, started in a fresh runtime folder (the window's earlier worker, the session's shared one by default,
 * has served other suites), and back on the session's worker after, the suite's server stopped and its folder gone.
 */
export function ownSharedWorker(): { readonly previousPid: number; readonly serverPid: number } {
  const own = { previousPid: 0, serverPid: 0 };
  let dir = "";
  let savedDir: string | undefined;
  before(async function () {
    this.timeout(300_000);
    const { hooks } = await swarmboard();
    own.previousPid = await waitFor(
      "the worker to be ready",
      () => (hooks.worker.state.state === "ready" ? hooks.worker.state.pid : undefined),
      120_000,
    );
    savedDir = process.env.XDG_RUNTIME_DIR;
    // The window reads the folder each time it connects (so does a server it starts, and serverStatus).
    dir = mkdtempSync(path.join(os.tmpdir(), "sb-own-"));
    process.env.XDG_RUNTIME_DIR = dir;
    own.serverPid = await attachShared(hooks);
  });
  after(async function () {
    this.timeout(300_000);
    if (savedDir === undefined) delete process.env.XDG_RUNTIME_DIR;
    else process.env.XDG_RUNTIME_DIR = savedDir;
    await restoreSetting();
    const { hooks } = await swarmboard();
    await vscode.commands.executeCommand("swarmboard.restartWorker");
    await waitFor(
      "the window back on its own worker",
      () => (hooks.worker.state.state === "ready" && hooks.worker.state.pid !== own.serverPid) || undefined,
      180_000,
    );
    await stopServersIn(dir);
    rmSync(dir, { recursive: true, force: true });
  });
  return own;
}
