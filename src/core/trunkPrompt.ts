// The trunk: the shared context every agent forks from (charter, tools, workspace summary, conventions, roster,
// goal, open work, memories). It is decoded once into the KV cache and shared, so it must render byte for byte the
// same from the same inputs: tools and roster are sorted, JSON schemas are written with sorted keys, line ends are
// "\n", and nothing here reads a clock, an environment or a random source.
import type { AgentRule } from "../protocol/agentRules";
import type { Recipe } from "../protocol/recipe";
import { renderRules, rulesSummaryLine } from "./agentRules";
import { canonicalJson } from "./board";
import { budgetLeftAdvice } from "./budgetLeft";

/** A tool as the model sees it; the schemas come from the tool catalogues (src/protocol/tools.ts, boardTools.ts). */
export interface ToolDescription {
  readonly name: string;
  readonly description: string;
  /** JSON schema of the arguments (e.g. from `z.toJSONSchema`). */
  readonly parameters: unknown;
}

export interface RosterEntry {
  readonly agent: string;
  readonly role: string;
  /** What the agent covers, in words (its claim's scope, or its angle on the goal). */
  readonly covers: string;
}

export interface TrunkInput {
  readonly recipe: Recipe;
  readonly goal: string;
  readonly tools: readonly ToolDescription[];
  readonly roster: readonly RosterEntry[];
  /** What the repository holds (its files at HEAD), made by the workspace layer: the same for every swarm on it. */
  readonly workspaceSummary: string;
  /** This swarm's open tasks and what its board already holds (a resumed swarm's); left out when empty. */
  readonly openWork?: string;
  /** The repository's agent-rules files (AGENTS.md and the like); the section is left out when there are none. */
  readonly rules?: readonly AgentRule[];
  /** Memories of earlier swarms chosen for this goal (src/core/memorySelection.ts renderMemorySection). */
  readonly memory?: string;
}

const byKey =
  <T>(key: (t: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

function clean(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n")
    .trim();
}

/** The rules of the swarm, from its recipe. */
/** What a launch seat's one-line brief (core/agentBriefs.ts) leaves to the trunk, said once for every agent. */
export const briefRule =
  "Your own brief, after this shared text, names you and your role (see Roles and the roster). " +
  "A brief that lists no tasks means: claim one of the tasks under Open work by its id before you work on it; " +
  "start by reading the board and the code, then claim.";

export function renderCharter(recipe: Recipe): string {
  const pads =
    recipe.visibility === "shared"
      ? "Findings are shared: every agent sees each finding as it lands."
      : `Findings stay on your own pad until the synthesist (${recipe.synthesist ?? "none"}) fans in; claims and the roster are visible to all.`;
  const roles = recipe.roles.map(
    (r) => `- ${r.name} (x${r.count}; tools: ${[...r.tools].sort().join(", ")}): ${clean(r.instructions)}`,
  );
  return [
    `You are one agent of the swarm "${recipe.name}": ${clean(recipe.description)}`,
    "There is no central orchestrator; agents organise themselves through the board.",
    "",
    "Each iteration of your loop: gather context (read the board and the code) -> claim a sub-task ->",
    "act with tools -> verify (run the checks) -> merge verified work. Then start again.",
    briefRule,
    "",
    "Rules:",
    "- Claim before you change anything; work only inside your claim. A refused claim means another agent holds an overlapping scope: choose other work or message it.",
    "- Post what you learn: OBSERVED (seen, unchecked), FACT (checked, with file:line refs), FAIL (what did not work and why), PATCH_SUMMARY (what a change did).",
    "- Search the board (grep_board) before repeating work; it holds the whole history.",
    "- Swarm messages arrive at the start of your next iteration; direct messages when your current tool call returns.",
    "- Release your claim when you finish or give up. A watchdog nudges agents that stop making progress, then releases their claim, then stops them.",
    `- ${budgetLeftAdvice}`,
    `- ${pads}`,
    "",
    "Roles:",
    ...roles,
  ].join("\n");
}

export function renderTools(tools: readonly ToolDescription[]): string {
  const names = new Set<string>();
  for (const t of tools) {
    if (names.has(t.name))
      throw new Error(`Tool "${t.name}" is listed twice in the trunk; each tool must appear once.`);
    names.add(t.name);
  }
  return [...tools]
    .sort(byKey((t) => t.name))
    .map((t) => `## ${t.name}\n${clean(t.description)}\nArguments (JSON schema): ${canonicalJson(t.parameters)}`)
    .join("\n\n");
}

export function renderRoster(roster: readonly RosterEntry[]): string {
  if (roster.length === 0) return "(no agents yet)";
  return [...roster]
    .sort(byKey((r) => r.agent))
    .map((r) => `- ${r.agent} [${r.role}]: ${clean(r.covers)}`)
    .join("\n");
}

/** The trunk in its two parts: what every swarm of the recipe on the repository shares, then the swarm's own. */
export interface TrunkParts {
  /** Charter, tools, workspace (files at HEAD, agent rules) and conventions: the system text (no trailing blank). */
  readonly repository: string;
  /** Roster, goal, open work and memories, each section ending with a blank line. */
  readonly swarm: string;
}

/**
 * The trunk's two parts. Same inputs, same bytes.
 *
 * The order is the prefix another swarm can fork: a trunk that begins with the same tokens as a live or kept one
 * is forked from it up to where they differ (runtime/local/swarmPool.ts bestTrunkSource, trunkReuse.ts). So what is
 * the same for every swarm of a recipe on one repository comes first (charter, tools, the files at HEAD, the
 * repository's agent rules), then what two such swarms often share (the roster: seats of the recipe, per task only
 * when the tasks go round), then what is the swarm's own: its goal, its open tasks and board, and last the memories
 * chosen for its goal, so that a later swarm with the same goal and new memories still reuses everything before.
 * The chat template documents the tools after the system text, so the swarm's part goes after them, at the start of
 * the user turn (runtime/agentChatFormat.ts), where a second swarm's trunk forks the tool docs too.
 */
export function renderTrunkParts(input: TrunkInput): TrunkParts {
  const rules = input.rules ?? [];
  const conventions = renderRules(rules);
  const rulesLine = rulesSummaryLine(rules);
  const openWork = clean(input.openWork ?? "");
  const repository = [
    "# Charter",
    renderCharter(input.recipe),
    "",
    "# Tools",
    renderTools(input.tools),
    "",
    "# Workspace",
    clean(input.workspaceSummary),
    ...(rulesLine === "" ? [] : [rulesLine]),
    ...(conventions === "" ? [] : ["", "# Conventions", conventions]),
  ];
  const swarm = [
    "# Roster",
    renderRoster(input.roster),
    "",
    "# Goal",
    clean(input.goal),
    "",
    ...(openWork === "" ? [] : ["# Open work", openWork, ""]),
    ...(input.memory ? ["# Memory", input.memory, ""] : []),
  ];
  return { repository: repository.join("\n"), swarm: swarm.join("\n") };
}

/** The whole trunk text, as trunk.txt keeps it: the repository's part, a blank line, the swarm's part. */
export function joinTrunk({ repository, swarm }: TrunkParts): string {
  return `${repository}\n\n${swarm}`;
}

export function renderTrunk(input: TrunkInput): string {
  return joinTrunk(renderTrunkParts(input));
}
