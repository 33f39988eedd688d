// Confirmations before actions that change the user's repository or machine (merge, discard, loading a
// model that may not fit): a modal that names the action. Tests answer through `answerNext` instead of
// the modal, which nothing in the extension host can click.
import * as vscode from "vscode";
import type { HostLog } from "./hostLog";

export class Confirmations {
  private readonly scripted: boolean[] = [];
  private readonly asked: string[] = [];

  constructor(private readonly log: HostLog) {}

  /** Test hook: the next confirmations are answered with these, in order, without a modal. */
  answerNext(...answers: boolean[]): void {
    this.scripted.push(...answers);
  }

  /** Every question asked so far (test hook). */
  questions(): readonly string[] {
    return this.asked;
  }

  async confirm(message: string, detail: string, action: string): Promise<boolean> {
    this.asked.push(message);
    const scripted = this.scripted.shift();
    const yes =
      scripted ?? (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;
    this.log.info(`${message} ${yes ? `-> ${action}` : "-> cancelled"}`);
    return yes;
  }
}
