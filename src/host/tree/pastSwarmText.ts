// The words the tree shows for a swarm's history: its branches measured by git (merged, unmerged, no commits),
// whether it was cleaned up, who launched it. Empty for a swarm this window runs (its lanes say more).
import type { BranchState } from "../../protocol/swarmHistoryRpc";
import type { HostSwarmView } from "../swarm/swarmStatus";

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "es"}`;
}

/** "3 branches, 1 unmerged" or "cleaned up"; empty when the swarm is not a past one. */
export function branchesLine(view: HostSwarmView): string {
  if (view.cleanedUpAt !== undefined) return "cleaned up";
  const branches = view.past?.branches;
  if (branches === undefined) return "";
  const unmerged = branches.filter((b) => b.state === "unmerged").length;
  return `${plural(branches.length, "branch")}${unmerged > 0 ? `, ${unmerged} unmerged` : ""}`;
}

function branchLine(b: BranchState): string {
  const state =
    b.state === "unmerged"
      ? `${b.unmergedCommits} commit(s) not in your branch`
      : b.state === "merged"
        ? "merged into your branch"
        : "no commits";
  return `  ${b.branch}: ${state}`;
}

/** The tooltip's history part: how it ended by the registry, its branches one per line. */
export function historyTooltip(view: HostSwarmView): string {
  const past = view.past;
  if (past === undefined)
    return view.cleanedUpAt !== undefined ? `\nCleaned up ${new Date(view.cleanedUpAt).toLocaleString()}` : "";
  const lines = [
    "",
    `From the repository's history (launched from ${past.launchedBy === "cli" ? "the CLI" : "VS Code"}): ${past.outcome}${past.reason ? ` (${past.reason})` : ""}`,
    `${past.findings} finding(s)${past.stateDirExists ? "" : "; its state dir is gone"}`,
  ];
  if (view.cleanedUpAt !== undefined) lines.push(`Cleaned up ${new Date(view.cleanedUpAt).toLocaleString()}`);
  else lines.push(...past.branches.map(branchLine));
  return lines.join("\n");
}
