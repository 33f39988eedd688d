// The `swarmboard.swarmStarted` context key: the walkthrough's "Launch a swarm" step ticks on it (package.json,
// `onContext:`), so it ticks when a swarm of this window really started (the worker said so: its model and
// shared context are up), not when the launch command ran and was cancelled. VS Code keeps a ticked step ticked.
import * as vscode from "vscode";
import type { SwarmStore } from "../swarm/swarmStore";

export const swarmStartedKey = "swarmboard.swarmStarted";

export function trackSwarmStarted(store: SwarmStore): vscode.Disposable {
  let told = false;
  const update = () => {
    // `model` comes with the worker's swarm-started; a past swarm read from the history did not start here.
    if (told || !store.swarms().some((s) => s.past === undefined && s.model !== undefined)) return;
    told = true;
    void vscode.commands.executeCommand("setContext", swarmStartedKey, true);
  };
  update();
  return store.onDidChange(update);
}
