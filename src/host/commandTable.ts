// The one table of the extension's commands. package.json's `contributes.commands` lists exactly the entries
// that are not `internal` (the activation host test checks both ways); internal ones take an argument built by
// the extension itself (a tree node, a finding's ref) and are never offered in the palette.
import * as vscode from "vscode";

interface CommandEntry {
  readonly id: `swarmboard.${string}`;
  /** Registered but not contributed: only the extension's own views call it, with an argument. */
  readonly internal?: true;
}

export const hostCommands = {
  launchSwarm: { id: "swarmboard.launchSwarm" },
  launchSwarmWithContext: { id: "swarmboard.launchSwarmWithContext" },
  startWatching: { id: "swarmboard.startWatching" },
  stopWatching: { id: "swarmboard.stopWatching" },
  stopSwarm: { id: "swarmboard.stopSwarm" },
  openPanel: { id: "swarmboard.openPanel" },
  reviewBranches: { id: "swarmboard.reviewBranches" },
  selectModel: { id: "swarmboard.selectModel" },
  pullModel: { id: "swarmboard.pullModel" },
  buildRuntime: { id: "swarmboard.buildRuntime" },
  pingWorker: { id: "swarmboard.pingWorker" },
  listFindings: { id: "swarmboard.listFindings" },
  openBranchDiff: { id: "swarmboard.openBranchDiff" },
  stopAgent: { id: "swarmboard.stopAgent" },
  showLane: { id: "swarmboard.showLane" },
  restartWorker: { id: "swarmboard.restartWorker" },
  resumeSwarm: { id: "swarmboard.resumeSwarm" },
  cleanUpSwarm: { id: "swarmboard.cleanUpSwarm" },
  setEngineApiKey: { id: "swarmboard.setEngineApiKey" },
  searchMemories: { id: "swarmboard.searchMemories" },
  deleteMemory: { id: "swarmboard.deleteMemory" },
  messageSwarm: { id: "swarmboard.messageSwarm" },
  messageAgent: { id: "swarmboard.messageAgent" },
  pauseAgent: { id: "swarmboard.pauseAgent" },
  resumeAgent: { id: "swarmboard.resumeAgent" },
  addTask: { id: "swarmboard.addTask" },
  answerQuestion: { id: "swarmboard.answerQuestion" },
  mergeBranchInDiff: { id: "swarmboard.mergeBranchInDiff" },
  discardBranchInDiff: { id: "swarmboard.discardBranchInDiff" },
  openFindingRef: { id: "swarmboard.openFindingRef", internal: true },
  mergeBranch: { id: "swarmboard.mergeBranch", internal: true },
  discardBranch: { id: "swarmboard.discardBranch", internal: true },
  openAgentWorktree: { id: "swarmboard.openAgentWorktree", internal: true },
} as const satisfies Record<string, CommandEntry>;

export type HostCommand = keyof typeof hostCommands;

/** A command's handler; what it returns is what `executeCommand` resolves to (tests read it). */
export type CommandHandler = (...args: never[]) => unknown;

/** Registers one handler per table entry; a missing or extra handler is a type error, not a runtime surprise. */
export function registerCommandTable(handlers: Record<HostCommand, CommandHandler>): vscode.Disposable {
  const names = Object.keys(hostCommands) as HostCommand[];
  return vscode.Disposable.from(
    ...names.map((name) =>
      vscode.commands.registerCommand(hostCommands[name].id, handlers[name] as (...args: unknown[]) => unknown),
    ),
  );
}

/** The id a view or another command uses to call one of ours. */
export function commandId(name: HostCommand): string {
  return hostCommands[name].id;
}
