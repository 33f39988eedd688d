// The `swarmboard.modelSet` context key: the Get Started view (its welcome content offers to pick or download a
// model) shows only while no model is set.
import * as vscode from "vscode";
import { readSettings } from "../configuration";

export function modelIsSet(): boolean {
  const settings = readSettings();
  return settings.ok && settings.settings.modelPath !== "";
}

export function trackModelSet(): vscode.Disposable {
  const update = () => void vscode.commands.executeCommand("setContext", "swarmboard.modelSet", modelIsSet());
  update();
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration("swarmboard.modelPath")) update();
  });
}
