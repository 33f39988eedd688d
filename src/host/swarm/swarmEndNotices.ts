// Tells the user when a swarm ends, once per swarm, with what to do next: review its branches and open its
// report after a normal end; resume it, review it or read the log after its worker died (an interrupted swarm).
// Once per run: a resumed swarm that ends again is told again.
import * as vscode from "vscode";
import { DisposableBase } from "../../core/disposable";
import { commandId } from "../commandTable";
import type { HostLog } from "../hostLog";
import type { Notices } from "../notices";
import type { SwarmStore } from "./swarmStore";
import { isRunning, type HostSwarmView } from "./swarmStatus";

const resumeAction = "Resume";
const reviewAction = "Review Branches";
const reportAction = "Open Report";
const logAction = "Show Log";

function ending(view: HostSwarmView): string {
  switch (view.status) {
    case "completed":
      return "finished";
    case "budget":
      return `ran out of its budget (${view.endReason ?? "no reason given"})`;
    case "stopped":
      return "was stopped";
    default:
      return `failed: ${view.endReason ?? "no reason given"}`;
  }
}

export class SwarmEndNotices extends DisposableBase {
  private readonly told = new Set<string>();

  constructor(
    private readonly swarms: SwarmStore,
    private readonly notices: Notices,
    private readonly log: HostLog,
  ) {
    super();
    this.register(
      swarms.onDidChange(({ swarmId, types }) => {
        if (types.has("swarm-ended")) void this.tell(swarmId);
      }),
    );
  }

  private async tell(swarmId: string): Promise<void> {
    const view = this.swarms.swarm(swarmId);
    const run = `${swarmId}@${view?.startedAt ?? 0}`;
    if (!view || isRunning(view) || this.told.has(run)) return;
    this.told.add(run);
    const name = `“${view.goal.length > 60 ? `${view.goal.slice(0, 59)}…` : view.goal || swarmId}”`;
    if (view.interrupted !== undefined) {
      const text = `Swarmboard: swarm ${name} was interrupted: ${view.interrupted}. Nothing of it is running any more; its branches and findings are kept, and Resume continues it.`;
      this.log.warn(text);
      this.act(await this.notices.show("warning", text, [resumeAction, reviewAction, logAction]), view);
      return;
    }
    const text = `Swarmboard: swarm ${name} ${ending(view)}.`;
    if (view.status === "failed") {
      // Shown as the error it is (a set-up that failed, a crash inside the run), with the log that says more.
      this.log.error(text);
      this.act(await this.notices.show("error", text, [reviewAction, logAction]), view);
      return;
    }
    this.log.info(text);
    const actions = view.reportPath ? [reviewAction, reportAction] : [reviewAction];
    this.act(await this.notices.show("info", text, actions), view);
  }

  private act(action: string | undefined, view: HostSwarmView): void {
    if (action === resumeAction) void vscode.commands.executeCommand(commandId("resumeSwarm"), { swarmId: view.id });
    else if (action === reviewAction)
      void vscode.commands.executeCommand(commandId("reviewBranches"), { swarmId: view.id });
    else if (action === reportAction && view.reportPath)
      void vscode.window.showTextDocument(vscode.Uri.file(view.reportPath), { preview: true });
    else if (action === logAction) this.log.show();
  }
}
