// A quick pick that remembers itself while open, so the in-host tests can read its items and pick one
// the way a user would (VS Code's own `showQuickPick` gives no handle to its widget).
import * as vscode from "vscode";

export interface PickOptions {
  readonly title: string;
  readonly placeholder?: string;
  /** Keep it open when focus moves elsewhere (multi-step flows). */
  readonly ignoreFocusOut?: boolean;
}

/** The items again, when something they show arrives after the pick opened (the recipe suggestion's facts). */
export interface PickUpdate<T> {
  readonly items: readonly T[];
  readonly active?: T;
}

export class QuickPicker {
  /** The quick pick on screen now, if it is one of ours. */
  current: vscode.QuickPick<vscode.QuickPickItem> | undefined;

  /**
   * `active`: the item focused at first. `later`: new items (and focus) that replace these when they come, unless
   * the person has already typed a filter or moved the focus: their choice is never taken from them.
   */
  pick<T extends vscode.QuickPickItem>(
    items: readonly T[],
    options: PickOptions & { readonly active?: T; readonly later?: Promise<PickUpdate<T> | undefined> },
  ): Promise<T | undefined> {
    const picker = vscode.window.createQuickPick<T>();
    picker.title = options.title;
    if (options.placeholder !== undefined) picker.placeholder = options.placeholder;
    picker.matchOnDescription = true;
    picker.matchOnDetail = true;
    picker.ignoreFocusOut = options.ignoreFocusOut ?? false;
    picker.items = items;
    let ours = options.active ?? items[0];
    if (options.active !== undefined) picker.activeItems = [options.active];
    let open = true;
    void options.later?.then((next) => {
      const moved = picker.activeItems[0] !== undefined && picker.activeItems[0] !== ours;
      if (!open || next === undefined || picker.value !== "" || moved) return;
      picker.items = next.items;
      if (next.active !== undefined) picker.activeItems = [next.active];
      ours = next.active ?? next.items[0];
    });
    this.current = picker as unknown as vscode.QuickPick<vscode.QuickPickItem>;
    return new Promise((resolve) => {
      picker.onDidAccept(() => {
        open = false;
        resolve(picker.selectedItems[0] ?? picker.activeItems[0]);
        picker.hide();
      });
      picker.onDidHide(() => {
        open = false;
        resolve(undefined);
        picker.dispose();
        if (this.current === (picker as unknown)) this.current = undefined;
      });
      picker.show();
    });
  }
}
