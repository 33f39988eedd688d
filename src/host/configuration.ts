// Reads the `swarmboard.*` settings from VS Code and parses them with the one settings schema, so a wrong
// value in a hand-edited settings.json is reported by name (and never reaches the worker as is).
import * as vscode from "vscode";
import { parseSettings, settingKeys, type SettingsResult } from "../protocol/settings";
import type { HostLog } from "./hostLog";

export function readSettings(): SettingsResult {
  const config = vscode.workspace.getConfiguration("swarmboard");
  const raw = Object.fromEntries(settingKeys.map((key) => [key, config.get<unknown>(key)]));
  return parseSettings(raw);
}

/** Calls `listener` with freshly parsed settings whenever a `swarmboard.*` setting changes. */
export function onDidChangeSettings(listener: (settings: SettingsResult) => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration("swarmboard")) listener(readSettings());
  });
}

/** Reports wrong settings now and whenever they change: in the log and as a warning naming each one. */
export function reportSettingsProblems(log: HostLog): vscode.Disposable {
  const report = (result: SettingsResult) => {
    if (result.ok) return;
    for (const problem of result.problems) log.warn(`settings: ${problem}`);
    void vscode.window.showWarningMessage(`Swarmboard: ${result.problems.join(" ")}`);
  };
  report(readSettings());
  return onDidChangeSettings(report);
}
