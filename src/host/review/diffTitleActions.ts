// Merge and Discard from the diff editor's title: the diff of an agent's branch (opened by Review Agent Branches
// or the tree) carries its swarm and branch in its right side's `swarmboard-git:` URI, so the person acts on what
// they are reading without going back through the command and its pickers. Called from the title with that URI,
// or from the palette with none (then the active diff tab says which branch).
import * as vscode from "vscode";
import { branchParts, type BranchTarget } from "./branchDiff";
import { gitScheme, parseRefUri } from "./gitContentProvider";

/** The branch a `swarmboard-git:` URI shows; a diff's left side (the base commit) is no branch and is refused. */
export function branchOfRefUri(uri: vscode.Uri): BranchTarget {
  const { swarmId, ref } = parseRefUri(uri);
  const parts = branchParts(ref);
  if (parts === undefined || parts.swarmId !== swarmId)
    throw new Error(`${ref} is not a branch of swarm ${swarmId}: open the branch's changes to merge or discard it.`);
  return { swarmId, branch: ref };
}

/** The right side of the active tab when it is one of our diffs. */
function activeDiffSide(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputTextDiff && input.modified.scheme === gitScheme ? input.modified : undefined;
}

/** The branch the title button (its URI argument) or the active diff editor shows. */
export function branchOfDiff(arg: unknown): BranchTarget {
  const uri = arg instanceof vscode.Uri && arg.scheme === gitScheme ? arg : activeDiffSide();
  if (uri === undefined)
    throw new Error(
      "No agent branch's diff is open here: open one with Swarmboard: Review Agent Branches, then merge or discard it from the diff's title.",
    );
  return branchOfRefUri(uri);
}

/** Closes the diff tabs of a branch that is gone (discarded): their right side can no longer be read. */
export async function closeDiffsOf(target: BranchTarget): Promise<number> {
  const tabs = vscode.window.tabGroups.all.flatMap((group) =>
    group.tabs.filter((tab) => {
      const input = tab.input;
      if (!(input instanceof vscode.TabInputTextDiff) || input.modified.scheme !== gitScheme) return false;
      const shown = parseRefUri(input.modified);
      return shown.swarmId === target.swarmId && shown.ref === target.branch;
    }),
  );
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
  return tabs.length;
}
