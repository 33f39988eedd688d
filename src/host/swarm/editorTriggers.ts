// The editor as a trigger source for a standing swarm, while it runs: each change of the diagnostics of a file
// inside its repository sends what appeared or changed (src/core/diagnosticTriggers.ts) to the worker as
// `swarm/trigger` (the worker's rules drop the noise), and each save of a file there says `swarm/saved` (the worker
// runs the recipe's test command on the checkout, debounced). It stops when the swarm ends or the worker says it
// no longer stands.
import path from "node:path";
import * as vscode from "vscode";
import { DiagnosticChanges, type EditorDiagnostic } from "../../core/diagnosticTriggers";
import { toErrorData } from "../../core/rpc/rpcPeer";
import { swarmSavedMethod, swarmTriggerMethod } from "../../protocol/triggers";
import type { HostLog } from "../hostLog";
import type { WorkerProcess } from "../workerProcess";
import type { SwarmStore } from "./swarmStore";

const severityNames: Record<vscode.DiagnosticSeverity, EditorDiagnostic["severity"]> = {
  [vscode.DiagnosticSeverity.Error]: "error",
  [vscode.DiagnosticSeverity.Warning]: "warning",
  [vscode.DiagnosticSeverity.Information]: "information",
  [vscode.DiagnosticSeverity.Hint]: "hint",
};

function codeOf(d: vscode.Diagnostic): string | number | undefined {
  return typeof d.code === "object" ? d.code.value : d.code;
}

/** The path of `uri` inside `repository` with forward slashes, or undefined for anything outside it. */
function insideRepository(repository: string, uri: vscode.Uri): string | undefined {
  if (uri.scheme !== "file") return undefined;
  const relative = path.relative(repository, uri.fsPath);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join("/");
}

/** The standing swarms this window watches the editor for, until they end (Stop Watching stops them). */
const watching = new Set<string>();

export function watchedSwarms(): readonly string[] {
  return [...watching];
}

export function watchEditorForSwarm(
  deps: { readonly worker: WorkerProcess; readonly store: SwarmStore; readonly log: HostLog },
  swarmId: string,
  repository: string,
): vscode.Disposable {
  const changes = new DiagnosticChanges();
  watching.add(swarmId);
  let stopped = false;
  let testsOnSave = true;
  const refused = (what: string) => (error: unknown) => {
    const { code, message } = toErrorData(error);
    deps.log.warn(`${what} not taken (${code}): ${message}`);
    if (code === "not-standing") stop("the worker says it no longer stands");
  };
  const send = (uri: vscode.Uri) => {
    const relative = insideRepository(repository, uri);
    if (relative === undefined) return;
    const found = vscode.languages.getDiagnostics(uri).map((d) => ({
      line: d.range.start.line + 1,
      severity: severityNames[d.severity],
      message: d.message,
      ...(d.source ? { source: d.source } : {}),
      ...(codeOf(d) !== undefined ? { code: codeOf(d)! } : {}),
    }));
    for (const trigger of changes.look(relative, found, Date.now()))
      deps.worker.request(swarmTriggerMethod, { swarmId, trigger }).catch(refused(`diagnostic trigger ${trigger.id}`));
  };
  const diagnosticsChanged = vscode.languages.onDidChangeDiagnostics((e) => {
    if (!stopped) for (const uri of e.uris) send(uri);
  });
  const saved = vscode.workspace.onDidSaveTextDocument((document) => {
    if (stopped || !testsOnSave || insideRepository(repository, document.uri) === undefined) return;
    deps.worker.request(swarmSavedMethod, { swarmId }).then(
      ({ testRun }) => {
        // A recipe without a test command: saves start nothing, so stop asking.
        testsOnSave = testRun;
      },
      refused(`the save of ${document.uri.fsPath}`),
    );
  });
  const ending = deps.store.onDidChange(() => {
    const status = deps.store.swarm(swarmId)?.status;
    if (status !== undefined && status !== "starting" && status !== "running") stop(`it is ${status}`);
  });
  // Said in the log (why errors stop reaching a swarm), except when the window closes and the log goes with it.
  const stop = (why?: string) => {
    if (stopped) return;
    if (why !== undefined) deps.log.info(`stopped watching the editor for swarm ${swarmId}: ${why}`);
    stopped = true;
    watching.delete(swarmId);
    diagnosticsChanged.dispose();
    saved.dispose();
    ending.dispose();
  };
  // What is already wrong when watching starts is news too.
  for (const [uri] of vscode.languages.getDiagnostics()) send(uri);
  return { dispose: () => stop() };
}
