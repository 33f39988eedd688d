// The `swarmboard.modelSet` context key: the Get Started view (its welcome content offers to pick or download a
// model) shows only while no model is set and no swarm of this window has loaded one.
import * as vscode from "vscode";
import { readSettings } from "../configuration";
import type { SwarmStore } from "../swarm/swarmStore";

export function modelIsSet(): boolean {
  const settings = readSettings();
  return settings.ok && settings.settings.modelPath !== "";
}

export function trackModelSet(store: SwarmStore): vscode.Disposable {
  let shown: boolean | undefined;
  const update = () => {
    const set = modelIsSet() || store.swarms().some((s) => s.model !== undefined);
    if (set === shown) return;
    shown = set;
    void vscode.commands.executeCommand("setContext", "swarmboard.modelSet", set);
  };
  update();
  return vscode.Disposable.from(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("swarmboard.modelPath")) update();
    }),
    store.onDidChange(update),
  );
}
