// The short answer an action gives when what it changed is not on screen at once (a message sent, a task added,
// an agent asked to pause, a swarm resumed or stopped): a status bar message for a few seconds, so the person
// knows the click was taken and what happens next, without a notification to dismiss. Each one is kept for the
// in-host tests, which cannot read the status bar's transient messages.
import * as vscode from "vscode";

/** Long enough to be read after a glance back from the tree or the panel. */
const shownMs = 8_000;

export class Receipts implements vscode.Disposable {
  private readonly given: string[] = [];
  private showing: vscode.Disposable | undefined;

  /** Shows `text` in the status bar; the newest replaces the one before (they would pile up otherwise). */
  say(text: string): void {
    this.given.push(text);
    this.showing?.dispose();
    this.showing = vscode.window.setStatusBarMessage(`$(check) ${text}`, shownMs);
  }

  /** Every receipt given so far, oldest first (test hook). */
  recent(): readonly string[] {
    return this.given;
  }

  dispose(): void {
    this.showing?.dispose();
  }
}
