// Restricted Mode (an untrusted folder): Swarmboard's agents edit files and run commands, so nothing of it starts
// there (no worker, no model). It still shows up: the views say why they are empty and how to trust the folder
// (package.json's viewsWelcome, `!isWorkspaceTrusted`), and each of its commands answers with the same instead of
// "command not found". Once the person trusts the folder, the extension starts for real.
import * as vscode from "vscode";

export const restrictedText =
  "Swarmboard is off in Restricted Mode: its agents edit files and run commands, so it starts only in a folder " +
  "you trust.";
const trustAction = "Manage Workspace Trust";

/** The command ids package.json contributes (each answers with the hint while the folder is untrusted). */
function contributedCommands(context: vscode.ExtensionContext): string[] {
  const json = context.extension.packageJSON as { contributes?: { commands?: Array<{ command: string }> } };
  return (json.contributes?.commands ?? []).map((c) => c.command);
}

/** Stands in until the folder is trusted, then hands over to `start` (its own commands replace these). */
export function startWhenTrusted(context: vscode.ExtensionContext, start: () => void): void {
  const hint = async () => {
    const picked = await vscode.window.showInformationMessage(restrictedText, trustAction);
    if (picked === trustAction) await vscode.commands.executeCommand("workbench.trust.manage");
  };
  const standIns = contributedCommands(context).map((id) => vscode.commands.registerCommand(id, hint));
  const granted = vscode.workspace.onDidGrantWorkspaceTrust(() => {
    granted.dispose();
    for (const d of standIns) d.dispose();
    start();
  });
  context.subscriptions.push(granted, ...standIns);
}
