// Notifications that offer actions. Each one shown is kept (text and buttons) so the in-host tests can check what
// the user was told; a test can also pick a button, which nothing in the extension host can click.
import * as vscode from "vscode";

export interface Notice {
  readonly level: "info" | "warning";
  readonly text: string;
  readonly actions: readonly string[];
}

export class Notices {
  private readonly shown: Notice[] = [];
  private readonly picks: Array<(notice: Notice) => string | undefined> = [];

  /** Shows a notification and resolves with the button picked (undefined when dismissed). */
  async show(level: Notice["level"], text: string, actions: readonly string[]): Promise<string | undefined> {
    const notice = { level, text, actions };
    this.shown.push(notice);
    const scripted = this.picks.shift();
    if (scripted) return scripted(notice);
    return level === "info"
      ? vscode.window.showInformationMessage(text, ...actions)
      : vscode.window.showWarningMessage(text, ...actions);
  }

  /** Every notice shown so far (test hook). */
  recent(): readonly Notice[] {
    return this.shown;
  }

  /** Test hook: the next notice is answered by `pick` instead of the notification. */
  answerNext(pick: (notice: Notice) => string | undefined): void {
    this.picks.push(pick);
  }
}
