// What the delegation tools answer, as text an agent can read: a swarm's status and its findings. Pure: the
// language model tools and the MCP server both project the same SwarmViewState through these.
import type { BoardEntryKind } from "../protocol/board";
import type { FindingsToolInput } from "../protocol/delegationTools";
import { describeRule } from "./agentRules";
import { grepBoard, renderBoardHits } from "./grepBoard";
import type { SwarmViewState } from "./swarmView";

/** The swarm a tool acts on: the named one, else the running one, else the newest. */
export function pickSwarm<V extends SwarmViewState>(
  swarms: readonly V[],
  swarmId: string | undefined,
): V | { error: string } {
  if (swarmId !== undefined) {
    const named = swarms.find((s) => s.id === swarmId);
    if (named) return named;
    const known = swarms.map((s) => s.id).join(", ") || "none yet";
    return {
      error: `No swarm "${swarmId}" here (known: ${known}). Pass an id from swarmboard_launch or leave it out.`,
    };
  }
  const newest = [...swarms].sort((a, b) => b.startedAt - a.startedAt);
  const chosen = newest.find((s) => s.status === "running" || s.status === "starting") ?? newest[0];
  return chosen ?? { error: "No swarm has been launched yet: start one with swarmboard_launch." };
}

export function isRunning(view: SwarmViewState): boolean {
  return view.status === "running" || view.status === "starting";
}

function countKinds(view: SwarmViewState): string {
  const counts = new Map<BoardEntryKind, number>();
  for (const e of view.entries) counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${k} ${n}`).join(", ") || "none yet";
}

/**
 * A few lines an agent can act on: where the swarm stands and what to call next. `interrupted` is why its worker
 * ended before the swarm did (the host knows it; the worker's own view says "failed" underneath), so an agent is told
 * it can be resumed instead of that it failed.
 */
export function statusText(view: SwarmViewState, interrupted?: string): string {
  const agents = view.agents.map(
    (a) =>
      `- ${a.id} (${a.role}): ${a.state}${a.claim ? `, claim: ${a.claim}` : ""}${a.branch ? `, branch ${a.branch}` : ""}, ${a.tokens} tokens`,
  );
  const budget = view.stats
    ? `KV budget: ${view.stats.usedCells} of ${view.stats.poolCells} cells used (${view.stats.mode})`
    : "";
  const next = isRunning(view)
    ? "It is still running: call swarmboard_status again later, swarmboard_findings to read what it found so far, swarmboard_stop to end it."
    : interrupted !== undefined
      ? "It was interrupted before it ended: the person can resume it in VS Code (Swarmboard: Resume Swarm); its findings so far are in swarmboard_findings."
      : "It has ended: read its findings with swarmboard_findings; its branches wait for review in VS Code (Swarmboard: Review Agent Branches).";
  const word = interrupted !== undefined && !isRunning(view) ? `interrupted (${interrupted})` : view.status;
  return [
    `Swarm ${view.id}: ${word}${view.endReason && interrupted === undefined ? ` (${view.endReason})` : ""}`,
    `Goal: ${view.goal}`,
    `Recipe: ${view.recipe}; ${view.agents.length} agents`,
    ...(view.integrationBranch ? [`Integration branch: ${view.integrationBranch}`] : []),
    ...(view.rules && view.rules.length > 0
      ? [`Agent rules in the trunk: ${view.rules.map((r) => describeRule(r)).join(", ")}`]
      : []),
    ...agents,
    ...view.questions.map((q) => `Open question ${q.questionId} from ${q.agentId}: ${q.question}`),
    `Findings: ${countKinds(view)}`,
    ...(budget ? [budget] : []),
    ...(view.reportPath ? [`Report: ${view.reportPath}`] : []),
    next,
  ].join("\n");
}

/** Regex special characters escaped: the text filter matches words, not patterns. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The board's entries that match the query (kind, path, text), newest `limit` of them, one per line. */
export function findingsText(view: SwarmViewState, query: FindingsToolInput): string {
  const hits = grepBoard(view.entries, {
    ...(query.kind && query.kind.length > 0 ? { kind: query.kind } : {}),
    ...(query.path ? { path: query.path } : {}),
    ...(query.text ? { regex: literal(query.text) } : {}),
    limit: query.limit ?? 50,
  });
  const filters = [
    query.kind?.length ? `kind ${query.kind.join("|")}` : "",
    query.path ? `path ${query.path}` : "",
    query.text ? `text "${query.text}"` : "",
  ].filter((f) => f !== "");
  const header = `Swarm ${view.id} (${view.status}): ${hits.length} of ${view.entries.length} board entries${filters.length ? ` match ${filters.join(", ")}` : ""}.`;
  return hits.length === 0 ? `${header}\nNo board entries match.` : `${header}\n${renderBoardHits(hits)}`;
}
