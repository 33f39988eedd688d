// The launch's input boxes and quick picks, built with createInputBox/createQuickPick and remembered while
// open, so the in-host tests can read a step's prompt and answer it the way a user would (VS Code's
// `showInputBox`/`showQuickPick` give no handle to their widget).
import * as vscode from "vscode";

export interface InputStep {
  readonly title: string;
  readonly prompt: string;
  readonly value?: string;
  readonly placeholder?: string;
  /** An error blocks accepting; a warning is shown but lets the answer through. */
  validate?(value: string): { message: string; blocking: boolean } | undefined;
}

export class LaunchInput {
  /** The launch step on screen now, if any. */
  current: vscode.InputBox | vscode.QuickPick<vscode.QuickPickItem> | undefined;

  text(step: InputStep): Promise<string | undefined> {
    const box = vscode.window.createInputBox();
    box.title = step.title;
    box.prompt = step.prompt;
    box.ignoreFocusOut = true;
    if (step.value !== undefined) box.value = step.value;
    if (step.placeholder !== undefined) box.placeholder = step.placeholder;
    const check = () => {
      const verdict = step.validate?.(box.value);
      box.validationMessage = verdict ? { message: verdict.message, severity: verdict.blocking ? vscode.InputBoxValidationSeverity.Error : vscode.InputBoxValidationSeverity.Warning } : undefined;
      return verdict;
    };
    check();
    this.current = box;
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
        if (this.current === box) this.current = undefined;
      });
      box.show();
    });
  }

  pick<T extends vscode.QuickPickItem>(items: readonly T[], title: string, placeholder?: string): Promise<T | undefined> {
    const picker = vscode.window.createQuickPick<T>();
    picker.title = title;
    if (placeholder !== undefined) picker.placeholder = placeholder;
    picker.matchOnDescription = true;
    picker.matchOnDetail = true;
    picker.ignoreFocusOut = true;
    picker.items = items;
    this.current = picker as unknown as vscode.QuickPick<vscode.QuickPickItem>;
    return new Promise((resolve) => {
      picker.onDidAccept(() => {
        resolve(picker.selectedItems[0] ?? picker.activeItems[0]);
        picker.hide();
      });
      picker.onDidHide(() => {
        resolve(undefined);
        picker.dispose();
        if (this.current === (picker as unknown)) this.current = undefined;
      });
      picker.show();
    });
  }
}
