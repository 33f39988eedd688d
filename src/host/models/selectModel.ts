// "Swarmboard: Select Model": pick a GGUF file or download one by Hugging Face URI (cancellable progress),
// warn when it will not fit in free memory, show its facts and save it to `swarmboard.modelPath`.
import os from "node:os";
import * as vscode from "vscode";
import { RpcError } from "../../core/rpc/rpcPeer";
import {
  modelFactsMethod,
  modelToolCallingMethod,
  pullModelMethod,
  pullProgressNotification,
} from "../../protocol/swarmRpc";
import { readSettings } from "../configuration";
import type { HostLog } from "../hostLog";
import type { Confirmations } from "../confirmations";
import type { QuickPicker } from "../quickPicker";
import type { WorkerProcess } from "../workerProcess";
import type { ModelMemory } from "./modelMemory";
import type { Notices } from "../notices";
import { modelUriFormat, modelUriPrompt } from "./modelUris";
import { runtimeSettings } from "../launch/runtimeSettings";
import { catalogueItems } from "./catalogueItems";
import {
  factsLines,
  formatBytes,
  memoryVerdict,
  plainFitLine,
  type FactsSummary,
  type MemoryVerdict,
} from "./modelFit";

export interface ModelDeps {
  readonly worker: WorkerProcess;
  readonly log: HostLog;
  readonly confirmations: Confirmations;
  /** Where pulled models go (the extension's global storage). */
  readonly modelsDir: vscode.Uri;
  /** Free memory in bytes (os.freemem() unless a test set it). */
  readonly freeMemory: FreeMemory;
  /** The download in progress, if any (the cancel button and the test hooks reach it here). */
  readonly pulls: PullInProgress;
  /** Where a chosen model is saved (and whether to ask where). */
  readonly memory: ModelMemory;
  /** The quick pick the model is chosen in (the in-host tests read its items). */
  readonly picker: QuickPicker;
  /** The notice that says what the model fits (its Details button shows the engine's figures). */
  readonly notices: Notices;
}

export class PullInProgress {
  abort: AbortController | undefined;
  /** The last progress the worker reported for the current download. */
  progress: { downloadedBytes: number; totalBytes: number } | undefined;
}

export interface SelectedModel extends FactsSummary {
  readonly path: string;
  readonly memory: MemoryVerdict;
}

/** The machine's free memory; a test sets `override` to exercise the "does not fit" questions. */
export class FreeMemory {
  override: number | undefined;

  bytes(): number {
    return this.override ?? os.freemem();
  }
}

function basename(p: string): string {
  return p.split(/[\\/]/).pop() ?? p;
}

async function askForModel(deps: ModelDeps): Promise<string | undefined> {
  const current = readSettings();
  const currentPath = current.ok ? current.settings.modelPath : "";
  // 0 (the default) sizes the pool from free memory: the catalogue then shows what free memory holds.
  const budget = current.ok ? current.settings.kvCellsBudget : 0;
  const kvCells = budget > 0 ? budget : Number.POSITIVE_INFINITY;
  const separator = (label: string) => ({ id: "", label, kind: vscode.QuickPickItemKind.Separator });
  const catalogue = catalogueItems(kvCells, deps.freeMemory.bytes());
  const items = [
    { id: "file", label: "$(file) Choose a GGUF file…" },
    {
      id: "pull",
      label: "$(cloud-download) Download from Hugging Face…",
      detail: `${modelUriFormat} or an https URL of a .gguf file`,
    },
    ...(currentPath ? [{ id: "current", label: `$(check) Keep ${basename(currentPath)}`, detail: currentPath }] : []),
    separator("Instruct models with native tool calling (downloaded on pick)"),
    ...catalogue,
  ];
  const choice = await deps.picker.pick(items, { title: "Swarmboard: which model should the agents share?" });
  const fromCatalogue = catalogue.find((c) => c.id === choice?.id);
  if (fromCatalogue) return pullModel(deps, fromCatalogue.model.uri);
  if (choice?.id === "current") return currentPath;
  if (choice?.id === "pull") return pullModel(deps);
  if (choice?.id !== "file") return undefined;
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    filters: { "GGUF models": ["gguf"] },
    title: "Choose a GGUF model",
  });
  return picked?.[0]?.fsPath;
}

export async function pullModel(deps: ModelDeps, uriArg?: string): Promise<string | undefined> {
  const uri =
    uriArg ??
    (
      await vscode.window.showInputBox({
        title: "Download a GGUF model",
        prompt: modelUriPrompt,
        validateInput: (v) => (v.trim() === "" ? "Enter a URI" : undefined),
      })
    )?.trim();
  if (!uri) return undefined;
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Downloading ${uri}`, cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      deps.pulls.abort = abort;
      deps.pulls.progress = undefined;
      token.onCancellationRequested(() => abort.abort());
      let reported = 0;
      const sub = deps.worker.onNotification(pullProgressNotification, (p) => {
        if (p.uri !== uri || p.totalBytes <= 0) return;
        deps.pulls.progress = { downloadedBytes: p.downloadedBytes, totalBytes: p.totalBytes };
        const percent = (100 * p.downloadedBytes) / p.totalBytes;
        progress.report({
          increment: percent - reported,
          message: `${formatBytes(p.downloadedBytes)} of ${formatBytes(p.totalBytes)}`,
        });
        reported = percent;
      });
      try {
        const { path } = await deps.worker.request(pullModelMethod, { uri, dir: deps.modelsDir.fsPath }, abort.signal);
        deps.log.info(`downloaded ${uri} to ${path}`);
        return path;
      } catch (error) {
        const cancelled = error instanceof RpcError && error.error.code === "cancelled";
        const text = cancelled
          ? `Swarmboard: the download of ${uri} was cancelled; what arrived is kept so a retry resumes.`
          : `Swarmboard: could not download ${uri}: ${(error as Error).message}`;
        deps.log.warn(text);
        void (cancelled ? vscode.window.showInformationMessage(text) : vscode.window.showErrorMessage(text));
        return undefined;
      } finally {
        sub.dispose();
        if (deps.pulls.abort === abort) deps.pulls.abort = undefined;
      }
    },
  );
}

/** Reads the model's facts, asks when it would not fit, saves it, shows the facts. */
export async function useModel(deps: ModelDeps, modelPath: string): Promise<SelectedModel | undefined> {
  const name = basename(modelPath);
  if (!/\.gguf$/i.test(modelPath))
    throw new Error(`${modelPath} is not a .gguf file: Swarmboard loads GGUF models only.`);
  // Agents act only through tool calls: a story model or a template without tools is refused before it loads.
  const { refusal } = await deps.worker.request(modelToolCallingMethod, { modelPath });
  if (refusal !== undefined) throw new Error(refusal);
  const size = (await vscode.workspace.fs.stat(vscode.Uri.file(modelPath))).size;
  const early = memoryVerdict(size, 0, deps.freeMemory.bytes());
  if (
    !early.fits &&
    !(await deps.confirmations.confirm(
      `${name} does not fit in free memory. Load it anyway to read its facts?`,
      early.text,
      "Load anyway",
    ))
  )
    return undefined;
  const settings = readSettings();
  const threads = settings.ok && settings.settings.threads > 0 ? settings.settings.threads : 2;
  const runtime = settings.ok ? runtimeSettings(settings.settings) : {};
  const facts = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: `Reading ${name}` },
    () => deps.worker.request(modelFactsMethod, { modelPath, threads, ...runtime }),
  );
  const memory = memoryVerdict(facts.fileBytes, facts.poolBytes, deps.freeMemory.bytes());
  if (
    !memory.fits &&
    !(await deps.confirmations.confirm(
      `${name} and its KV pool do not fit in free memory. Use it anyway?`,
      memory.text,
      "Use anyway",
    ))
  )
    return undefined;
  await deps.memory.remember(modelPath);
  const lines = factsLines(name, facts);
  for (const line of lines) deps.log.info(`model: ${line}`);
  deps.log.info(`model: ${memory.text}`);
  showFit(deps.notices, name, facts, [...lines, memory.text]);
  return { ...facts, path: modelPath, memory };
}

/** Plain words first; the engine's figures only when the person asks for them (a modal, so they can be read whole). */
function showFit(notices: Notices, name: string, facts: FactsSummary, details: readonly string[]): void {
  void notices.show("info", `Swarmboard will use ${name}: ${plainFitLine(facts)}`, ["Details"]).then((picked) => {
    if (picked === "Details")
      void vscode.window.showInformationMessage(`${name}: what the engine reads`, {
        modal: true,
        detail: details.join("\n"),
      });
  });
}

/** "Swarmboard: Download Model": asks for a URI, downloads it and uses it. */
export async function downloadModel(deps: ModelDeps): Promise<SelectedModel | undefined> {
  const modelPath = await pullModel(deps);
  return modelPath === undefined ? undefined : useModel(deps, modelPath);
}

/** Without arguments it asks; `{ path }` or `{ pullUri }` skip the questions (tests, other commands). */
export async function selectModel(
  deps: ModelDeps,
  args?: { path?: string; pullUri?: string },
): Promise<SelectedModel | undefined> {
  const modelPath =
    args?.path ?? (args?.pullUri !== undefined ? await pullModel(deps, args.pullUri) : await askForModel(deps));
  if (modelPath === undefined) return undefined;
  try {
    return await useModel(deps, modelPath);
  } catch (error) {
    const text = `Swarmboard could not use ${modelPath}: ${(error as Error).message}`;
    deps.log.error(text);
    void vscode.window.showErrorMessage(text);
    return undefined;
  }
}
