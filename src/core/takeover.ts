// Takeover: a task whose claim the watchdog released (its agent stalled, or was stopped) goes back to the pool
// with what that agent left on the board (its claim's text, its findings, why it was released), and a fresh agent
// forked from the trunk takes it over with those notes in its brief. Read from the board alone, so the rule is
// the same after a restart.
import type { BoardEntry } from "../protocol/board";
import { finishedTaskIds } from "./finishedTasks";

/** Release reasons the watchdog writes (src/core/progressGuard.ts). */
export const watchdogReleasePrefixes = ["stalled: ", "stopped: "] as const;

export interface Handover {
  readonly taskId: string;
  /** The agent whose claim was released. */
  readonly from: string;
  /** The watchdog's reason. */
  readonly reason: string;
  /** What the agent left: its claim's text and its findings, oldest first. */
  readonly notes: readonly string[];
}

const noteKinds = new Set(["OBSERVED", "FACT", "FAIL", "PATCH_SUMMARY"]);

/**
 * Tasks `agent` held until the watchdog released them, that nobody finished or claimed again since, each with
 * the notes the agent left (at most `maxNotes`, the newest).
 */
export function tasksToTakeOver(entries: readonly BoardEntry[], agent: string, maxNotes = 12): Handover[] {
  const claims = new Map(entries.filter((e) => e.kind === "CLAIM" && e.scope.taskId).map((e) => [e.id, e]));
  const finished = finishedTaskIds(entries);
  const found = new Map<string, Handover>();
  entries.forEach((e, i) => {
    if (e.kind !== "RELEASE" || e.author !== agent || e.releases === undefined) return;
    const prefix = watchdogReleasePrefixes.find((p) => e.text.startsWith(p));
    const claim = claims.get(e.releases);
    const taskId = claim?.scope.taskId;
    if (prefix === undefined || claim === undefined || taskId === undefined || finished.has(taskId)) return;
    const claimedAgain = entries.slice(i + 1).some((later) => later.kind === "CLAIM" && later.scope.taskId === taskId);
    if (claimedAgain) return;
    const findings = entries
      .filter((f) => f.author === agent && noteKinds.has(f.kind) && !/^(nudge|releaseClaim|stop): /.test(f.text))
      .map((f) => `${f.kind}: ${f.text}`);
    const notes = [`claimed it: ${claim.text}`, ...findings].slice(-maxNotes);
    found.set(taskId, { taskId, from: agent, reason: e.text.slice(prefix.length), notes });
  });
  return [...found.values()];
}

/** The line the board shows for a hand-over. */
export function handoverText(h: Handover, to: string): string {
  return `hand-over: task ${h.taskId} goes from ${h.from} (released by the watchdog: ${h.reason}) to ${to}, with its notes: ${h.notes.join(" | ")}`;
}

/** The fresh agent's brief: its usual one, and the task it takes over with the old agent's notes. */
export function takeoverBrief(brief: string, h: Handover): string {
  return [
    brief,
    `You take over task [${h.taskId}] from ${h.from}, whose claim the watchdog released (${h.reason}). Its notes:`,
    ...h.notes.map((n) => `- ${n}`),
    "Claim that task first, build on these notes, and do not repeat what got it stuck.",
  ].join("\n");
}
