// The in-host suite's entry point: VS Code loads this module (the payload's `extensionTestsPath`) inside the
// extension host and calls `run()`. It runs every *.test.js beside it with mocha and fails if any test fails.
// Mocha's report lines are marked so the runner can stream them apart from the workbench's own log.
import { readdirSync } from "node:fs";
import path from "node:path";
import { format } from "node:util";
import Mocha from "mocha";
import * as vscode from "vscode";
import type { SwarmboardApi } from "../../../src/host/testHooks";
import { reportLine, suiteOutputPrefix } from "./automationMarkers";
import { extensionId } from "./hostApi";

export function run(): Promise<void> {
  // SWARMBOARD_HOST_ONLY=approvals,findings runs only the files starting with those names (while working on them).
  const only = (process.env.SWARMBOARD_HOST_ONLY ?? "").split(",").filter((p) => p !== "");
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith(".test.js") && (only.length === 0 || only.some((p) => f.startsWith(p))))
    // The first-run tests need a window where no swarm has loaded a model yet: they go first, the rest by name.
    .sort((a, b) => Number(b.startsWith("firstRun")) - Number(a.startsWith("firstRun")) || a.localeCompare(b));
  if (files.length === 0)
    return Promise.reject(new Error(`no *.test.js files in ${__dirname}: run \`npm run compile:tests\``));
  return runMocha(files.map((f) => path.join(__dirname, f)));
}

/**
 * After a failed test, the extension's last log lines go to the report: CI keeps only the runner's output, and a
 * wait that gave up says nothing of what the host and its worker did meanwhile (a refused trigger, a worker's exit).
 */
function printLogOfFailure(this: Mocha.Context): void {
  if (this.currentTest?.state !== "failed") return;
  const api = vscode.extensions.getExtension<SwarmboardApi>(extensionId)?.exports;
  const lines = api?.testing?.log.recentLines().slice(-40) ?? [];
  reportLine(`    the Swarmboard log's last ${lines.length} lines after "${this.currentTest.title}" failed:`);
  for (const line of lines) reportLine(`      ${line}`);
}

/** Runs these compiled test files with mocha, its report marked for the runner; rejects if any test fails. */
export function runMocha(files: readonly string[]): Promise<void> {
  // Only the web workbench (code-server) mixes our lines into its own log; a desktop run prints them as they are.
  if (vscode.env.uiKind === vscode.UIKind.Web) {
    Mocha.reporters.Base.consoleLog = (...args: unknown[]) => {
      for (const line of format(...args).split("\n")) console.log(`${suiteOutputPrefix}${line}`);
    };
  }
  const mocha = new Mocha({
    ui: "bdd",
    color: false,
    reporter: "spec",
    timeout: 60_000,
    rootHooks: { afterEach: printLogOfFailure },
  });
  for (const f of files) mocha.addFile(f);
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} host test(s) failed`)) : resolve()));
  });
}
