// A quick pick that remembers itself while open, so the in-host tests can read its items and pick one
// the way a user would (VS Code's own `showQuickPick` gives no handle to its widget).
import * as vscode from "vscode";

export interface PickOptions {
  readonly title: string;
  readonly placeholder?: string;
  /** Keep it open when focus moves elsewhere (multi-step flows). */
  readonly ignoreFocusOut?: boolean;
}

export class QuickPicker {
  /** The quick pick on screen now, if it is one of ours. */
  current: vscode.QuickPick<vscode.QuickPickItem> | undefined;

  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: PickOptions): Promise<T | undefined> {
    const picker = vscode.window.createQuickPick<T>();
    picker.title = options.title;
    if (options.placeholder !== undefined) picker.placeholder = options.placeholder;
    picker.matchOnDescription = true;
    picker.matchOnDetail = true;
    picker.ignoreFocusOut = options.ignoreFocusOut ?? false;
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
