// Notifications that offer actions. Each one shown is kept (text and buttons) so the in-host tests can check what
// the user was told; a test can also pick a button, which nothing in the extension host can click (the
// notification is still shown then, so a screenshot shows what the user would see).
import * as vscode from "vscode";

/** A notification's wait in words ("5 min", "40 s"): what an approval or a question waits before it goes on. */
export function waitText(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.max(1, Math.round(ms / 1000))} s`;
}

export interface Notice {
  readonly level: "info" | "warning" | "error";
  readonly text: string;
  readonly actions: readonly string[];
}

/** A test's answer to a notice: a button now, or later (a test may look at the notice before it answers). */
export type NoticePick = (notice: Notice) => string | undefined | Promise<string | undefined>;

export class Notices {
  private readonly shown: Notice[] = [];
  private readonly picks: Array<NoticePick> = [];

  /** Shows a notification and resolves with the button picked (undefined when dismissed). */
  async show(level: Notice["level"], text: string, actions: readonly string[]): Promise<string | undefined> {
    const notice = { level, text, actions };
    this.shown.push(notice);
    const scripted = this.picks.shift();
    const shown =
      level === "info"
        ? vscode.window.showInformationMessage(text, ...actions)
        : level === "warning"
          ? vscode.window.showWarningMessage(text, ...actions)
          : vscode.window.showErrorMessage(text, ...actions);
    return scripted ? scripted(notice) : shown;
  }

  /** Every notice shown so far (test hook). */
  recent(): readonly Notice[] {
    return this.shown;
  }

  /** Test hook: the next notice is answered by `pick` instead of the notification. */
  answerNext(pick: NoticePick): void {
    this.picks.push(pick);
  }
}
