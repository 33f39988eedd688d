// An agent's ask_user question becomes a notification naming the agent and the question, with "Answer…" (an input
// box whose answer goes to the agent) and "Open Panel" (where the question waits with its own box). A notification
// rather than a modal: several agents may ask at once. VS Code cannot take a notification down from code, so an
// answer after the question ended is told that it came too late (src/host/swarm/steeringCommands.ts).
import * as vscode from "vscode";
import type { QuestionView } from "../../core/swarmView";
import { commandId } from "../commandTable";
import type { HostLog } from "../hostLog";
import { waitText, type Notices } from "../notices";
import type { SwarmStore } from "./swarmStore";

const answerButton = "Answer…";
const panelButton = "Open Panel";

/** The notification's text. */
export function questionNoticeText(swarmId: string, q: QuestionView): string {
  return `Swarmboard: ${q.agentId} (swarm ${swarmId}) asks: "${q.question}" Without an answer within ${waitText(q.timeoutMs)} it goes on with its best judgement.`;
}

export class QuestionPrompts implements vscode.Disposable {
  /** Questions already shown (each once, even after it ended). */
  private readonly shown = new Set<string>();
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly store: SwarmStore,
    private readonly notices: Notices,
    private readonly log: HostLog,
  ) {
    this.subscription = store.onDidChange((change) => {
      if (change.types.has("user-question")) this.sync(change.swarmId);
    });
  }

  private sync(swarmId: string): void {
    for (const q of this.store.swarm(swarmId)?.questions ?? []) {
      const key = `${swarmId}/${q.questionId}`;
      if (this.shown.has(key)) continue;
      this.shown.add(key);
      this.log.info(`question asked: ${q.agentId} asks ${q.questionId}: ${q.question}`);
      void this.notices.show("info", questionNoticeText(swarmId, q), [answerButton, panelButton]).then((picked) => {
        if (picked === answerButton)
          void vscode.commands.executeCommand(commandId("answerQuestion"), { swarmId, questionId: q.questionId });
        if (picked === panelButton) void vscode.commands.executeCommand(commandId("openPanel"));
      });
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
