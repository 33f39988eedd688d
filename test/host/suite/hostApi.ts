// Shared by the in-host tests: the extension's test hooks and a polling wait. The wait's limit is only a
// guard so that a broken feature fails with a clear message instead of hanging; no test asserts on time.
import * as vscode from "vscode";
import type { SwarmboardApi, SwarmboardTestHooks } from "../../../src/host/testHooks";

export const extensionId = "swarmboard.swarmboard";

export async function swarmboard(): Promise<{
  extension: vscode.Extension<SwarmboardApi>;
  hooks: SwarmboardTestHooks;
}> {
  const extension = vscode.extensions.getExtension<SwarmboardApi>(extensionId);
  if (!extension)
    throw new Error(
      `extension ${extensionId} is not loaded in this host (check the payload's extensionDevelopmentPath)`,
    );
  const api = await extension.activate();
  if (!api.testing)
    throw new Error("activate() returned no test hooks: the extension is not running in ExtensionMode.Test");
  return { extension, hooks: api.testing };
}

export async function waitFor<T>(what: string, probe: () => T | undefined | false, limitMs = 20_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Stops every swarm of this window still running (a suite's `after`): a suite that failed half-way must not leave its
 * swarm running for the next suite's noSwarmRunning to wait out; the failure stays its own.
 */
export async function stopSwarmsLeftRunning(hooks: SwarmboardTestHooks): Promise<void> {
  const running = () => hooks.swarms.store.swarms().filter((s) => s.status === "running" || s.status === "starting");
  for (const swarm of running()) await vscode.commands.executeCommand("swarmboard.stopSwarm", { swarmId: swarm.id });
  await waitFor("the swarms left running to stop", () => running().length === 0, 60_000);
}

/** Waits for a log line (already logged or still to come) that satisfies `match`. */
export function waitForLogLine(
  hooks: SwarmboardTestHooks,
  what: string,
  match: (line: string) => boolean,
): Promise<string> {
  return waitFor(what, () => hooks.log.recentLines().find(match));
}

/** One swarm per worker: waits until an earlier suite's swarm has ended. */
export function noSwarmRunning(hooks: SwarmboardTestHooks, limitMs = 180_000): Promise<true> {
  const idle = () => !hooks.swarms.store.swarms().some((s) => s.status === "running" || s.status === "starting");
  return waitFor("no other swarm running", () => idle() || undefined, limitMs);
}
