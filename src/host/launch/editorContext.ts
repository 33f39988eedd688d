// "Launch Swarm with Editor Context": the file in the active editor, its selection and its error diagnostics, as
// the user chooses in a quick pick, go into the goal (src/core/goalContext.ts writes them). The swarm works in the
// workspace folder that holds the file.
import * as path from "node:path";
import * as vscode from "vscode";
import { goalWithContext, type ContextChoice, type EditorContext } from "../../core/goalContext";
import { maxGoalChars } from "../../protocol/swarmRpc";
import type { LaunchInput } from "./launchInput";

/** What a launch with context carries: the folder of the file, and how to write the goal with the context. */
export interface LaunchContext {
  readonly folder: vscode.WorkspaceFolder;
  /** The goal with the chosen context, or why it cannot be (too long). */
  withGoal(goal: string): { ok: true; goal: string } | { ok: false; reason: string };
}

function editorContext(editor: vscode.TextEditor, folder: vscode.WorkspaceFolder): EditorContext {
  const { document, selection } = editor;
  const errors = vscode.languages
    .getDiagnostics(document.uri)
    .filter((d) => d.severity === vscode.DiagnosticSeverity.Error)
    .map((d) => ({
      line: d.range.start.line + 1,
      message: d.message,
      ...(d.source !== undefined ? { source: d.source } : {}),
    }));
  const relative = path.relative(folder.uri.fsPath, document.uri.fsPath).split(path.sep).join("/");
  return {
    path: relative,
    errors,
    ...(selection.isEmpty
      ? {}
      : {
          selection: {
            startLine: selection.start.line + 1,
            endLine: selection.end.line + 1,
            text: document.getText(selection),
          },
        }),
  };
}

interface ChoiceItem extends vscode.QuickPickItem {
  readonly choice: ContextChoice;
}

function choiceItems(context: EditorContext): ChoiceItem[] {
  const errors = context.errors.length;
  const errorsText = `${errors} error${errors === 1 ? "" : "s"}`;
  const items: ChoiceItem[] = [];
  const sel = context.selection;
  const lines = sel ? `lines ${sel.startLine}-${sel.endLine}` : "";
  if (sel && errors > 0)
    items.push({
      label: `$(selection) The selection and the file's errors`,
      description: `${lines} · ${errorsText}`,
      choice: { selection: true, errors: true },
    });
  if (sel)
    items.push({ label: "$(selection) The selection", description: lines, choice: { selection: true, errors: false } });
  if (errors > 0)
    items.push({
      label: "$(error) The file and its errors",
      description: errorsText,
      choice: { selection: false, errors: true },
    });
  items.push({
    label: "$(file) The file only",
    description: context.path,
    choice: { selection: false, errors: false },
  });
  return items;
}

/** Asks what of the active editor goes into the goal; undefined when cancelled (the reason is shown). */
export async function askEditorContext(input: LaunchInput): Promise<LaunchContext | { reason: string } | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined || editor.document.uri.scheme !== "file")
    return { reason: "Open a file in the editor first: the launch takes its selection, path and errors as context." };
  const folder = vscode.workspace.getWorkspaceFolder(editor.document.uri);
  if (folder === undefined)
    return {
      reason: `${editor.document.uri.fsPath} is not in a workspace folder: a swarm works in the folder's repository.`,
    };
  const context = editorContext(editor, folder);
  const picked = await input.pick(
    choiceItems(context),
    "Launch Swarm: context from the editor",
    "What goes into the goal with it",
  );
  if (picked === undefined) return undefined;
  return { folder, withGoal: (goal) => goalWithContext(goal, context, picked.choice, maxGoalChars) };
}
