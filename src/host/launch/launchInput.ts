// The launch's input boxes and quick picks, built with createInputBox/createQuickPick and remembered while
// open, so the in-host tests can read a step's prompt and answer it the way a user would (VS Code's
// `showInputBox`/`showQuickPick` give no handle to their widget).
import * as vscode from "vscode";
import { QuickPicker, type PickUpdate } from "../quickPicker";

export interface InputStep {
  readonly title: string;
  readonly prompt: string;
  readonly value?: string;
  readonly placeholder?: string;
  /** An error blocks accepting; a warning is shown but lets the answer through. */
  validate?(value: string): { message: string; blocking: boolean } | undefined;
}

export class LaunchInput {
  private readonly picker = new QuickPicker();
  private box: vscode.InputBox | undefined;

  /** The launch step on screen now, if any. */
  get current(): vscode.InputBox | vscode.QuickPick<vscode.QuickPickItem> | undefined {
    return this.box ?? this.picker.current;
  }

  text(step: InputStep): Promise<string | undefined> {
    const box = vscode.window.createInputBox();
    box.title = step.title;
    box.prompt = step.prompt;
    box.ignoreFocusOut = true;
    if (step.value !== undefined) box.value = step.value;
    if (step.placeholder !== undefined) box.placeholder = step.placeholder;
    const check = () => {
      const verdict = step.validate?.(box.value);
      box.validationMessage = verdict
        ? {
            message: verdict.message,
            severity: verdict.blocking
              ? vscode.InputBoxValidationSeverity.Error
              : vscode.InputBoxValidationSeverity.Warning,
          }
        : undefined;
      return verdict;
    };
    // An empty box is not judged before the person types (or presses Enter): no red error on a fresh step.
    if (box.value !== "") check();
    this.box = box;
    return new Promise((resolve) => {
      box.onDidChangeValue(check);
      box.onDidAccept(() => {
        if (check()?.blocking) return;
        resolve(box.value);
        box.hide();
      });
      box.onDidHide(() => {
        resolve(undefined);
        box.dispose();
        if (this.box === box) this.box = undefined;
      });
      box.show();
    });
  }

  /** `focus`: the item focused at first, and items that replace these when they arrive (see QuickPicker.pick). */
  pick<T extends vscode.QuickPickItem>(
    items: readonly T[],
    title: string,
    placeholder?: string,
    focus: { readonly active?: T; readonly later?: Promise<PickUpdate<T> | undefined> } = {},
  ): Promise<T | undefined> {
    const picked = this.picker.pick(items, {
      title,
      ignoreFocusOut: true,
      ...(placeholder !== undefined ? { placeholder } : {}),
      ...focus,
    });
    this.box = undefined;
    return picked;
  }
}
