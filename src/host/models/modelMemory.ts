// Remembers the model the user picked, so the next launch uses it without asking. It is saved to the User
// settings (the setting is not machine-scoped, so this works in local and remote windows alike); the first
// time, a notice offers to keep it for this workspace only instead, and that answer is remembered too.
import * as vscode from "vscode";
import type { HostLog } from "../hostLog";
import type { Notices } from "../notices";

const whereKey = "swarmboard.modelSavedIn";
const everywhere = "Everywhere";
const workspaceOnly = "This Workspace Only";

type Where = "everywhere" | "workspace";

export class ModelMemory {
  constructor(
    private readonly state: vscode.Memento,
    private readonly notices: Notices,
    private readonly log: HostLog,
  ) {}

  /** Saves `modelPath` where the user chose before (User settings until they say otherwise). */
  async remember(modelPath: string): Promise<void> {
    const config = vscode.workspace.getConfiguration("swarmboard");
    const where = this.state.get<Where>(whereKey);
    const inWorkspace = where === "workspace" && vscode.workspace.workspaceFolders !== undefined;
    const before = config.inspect<string>("modelPath")?.globalValue;
    await config.update(
      "modelPath",
      modelPath,
      inWorkspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global,
    );
    this.log.info(`model ${modelPath} saved to ${inWorkspace ? "this workspace's" : "your User"} settings`);
    if (where === undefined && vscode.workspace.workspaceFolders !== undefined) void this.askWhere(modelPath, before);
  }

  /** Asked once, without blocking the launch: the model is already saved everywhere when this shows. */
  private async askWhere(modelPath: string, previousGlobal: string | undefined): Promise<void> {
    const name = modelPath.split(/[\\/]/).pop() ?? modelPath;
    const picked = await this.notices.show(
      "info",
      `Swarmboard will use ${name} for every launch from now on (saved in your User settings). Keep it for this workspace only instead?`,
      [everywhere, workspaceOnly],
    );
    if (picked === undefined) return;
    await this.state.update(whereKey, picked === workspaceOnly ? "workspace" : "everywhere");
    if (picked !== workspaceOnly) return;
    const config = vscode.workspace.getConfiguration("swarmboard");
    await config.update("modelPath", modelPath, vscode.ConfigurationTarget.Workspace);
    await config.update("modelPath", previousGlobal, vscode.ConfigurationTarget.Global);
    this.log.info(`model ${modelPath} moved to this workspace's settings`);
  }
}
