// The private part of each agent's context, appended after the shared trunk; and for the synthesist, every pad
// it fans in. What the trunk already says (the roles' instructions, the open tasks at launch, the advice on the
// budget line) is not said again here: a private token costs every agent its decode and its cells, and a swarm's
// time to all agents started is mostly its agents' briefs once its trunk is forked from a live one.
import type { BoardEntry } from "../protocol/board";
import type { Role } from "../protocol/recipe";
import type { Task } from "../protocol/tasks";

/**
 * Who the agent is and what to claim. `tasksInTrunk`: the open tasks are exactly those the trunk lists (a seat of
 * the launch): the brief is only the agent's name and role, since the charter says what a brief without tasks
 * means (trunkPrompt.ts briefRule), and every token here is decoded once per agent, all of them in the step that
 * starts a stage. A seat that starts later (a later stage, a takeover, a standing worker) gets the tasks open now,
 * listed.
 */
export function agentBrief(agent: string, role: Role, tasks: readonly Task[], tasksInTrunk = false): string {
  const who = `You are ${agent}, a ${role.name}.`;
  if (tasksInTrunk && tasks.length > 0) return who;
  const claim =
    tasks.length === 0
      ? ["No task is open: claim an angle of the goal."]
      : ["Open tasks (claim one by its id before you work on it):", ...tasks.map((t) => `- [${t.id}] ${t.title}`)];
  return [who, ...claim, "Start by reading the board and the code, then claim."].join("\n");
}

/** Every entry the synthesist reads at fan-in, newest last, cut to `maxChars` (it says so when cut). */
export function synthesistBrief(agent: string, role: Role, entries: readonly BoardEntry[], maxChars = 12_000): string {
  const lines = entries
    .filter((e) => e.kind !== "CLAIM" && e.kind !== "RELEASE")
    .map((e) => {
      const refs = e.refs.map((r) => (r.line ? `${r.path}:${r.line}` : r.path)).join(", ");
      return `- ${e.kind} by ${e.author}${refs ? ` (${refs})` : ""}: ${e.text}`;
    });
  let body = lines.join("\n");
  if (body.length > maxChars)
    body =
      body.slice(body.length - maxChars) +
      `\n(${body.length - maxChars} earlier characters cut; use grep_board for them)`;
  return [
    `You are ${agent}, the synthesist. ${role.instructions}`,
    "Every pad of the swarm:",
    body || "(the board is empty)",
    "Write the report with write_report.",
  ].join("\n");
}

/** The report written from the board when the synthesist did not write one (nothing is lost either way). */
export function boardReport(goal: string, entries: readonly BoardEntry[], why: string): string {
  const section = (kind: BoardEntry["kind"], title: string) => {
    const items = entries.filter((e) => e.kind === kind);
    return items.length === 0 ? [] : [`## ${title}`, ...items.map((e) => `- ${e.author}: ${e.text}`), ""];
  };
  return [
    `# Swarm report`,
    "",
    `Goal: ${goal}`,
    "",
    `> ${why}`,
    "",
    ...section("FACT", "Facts"),
    ...section("PATCH_SUMMARY", "Changes"),
    ...section("FAIL", "Failures"),
    ...section("OBSERVED", "Observations"),
  ].join("\n");
}
