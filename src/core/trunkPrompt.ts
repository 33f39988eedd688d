// The trunk: the shared context every agent forks from (charter, tools, roster, goal, workspace summary).
// It is decoded once into the KV cache and shared, so it must render byte for byte the same from the same
// inputs: tools and roster are sorted, JSON schemas are written with sorted keys, line ends are "\n",
// and nothing here reads a clock, an environment or a random source.
import type { AgentRule } from "../protocol/agentRules";
import type { Recipe } from "../protocol/recipe";
import { renderRules, rulesSummaryLine } from "./agentRules";
import { canonicalJson } from "./board";

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
  /** A short description of the workspace (languages, layout, test command), made by the workspace layer. */
  readonly workspaceSummary: string;
  /** The repository's agent-rules files (AGENTS.md and the like); the section is left out when there are none. */
  readonly rules?: readonly AgentRule[];
  /** Memories of earlier swarms (src/core/memorySelection.ts renderMemorySection); last, so the rest is reused. */
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
    "",
    "Rules:",
    "- Claim before you change anything; work only inside your claim. A refused claim means another agent holds an overlapping scope: choose other work or message it.",
    "- Post what you learn: OBSERVED (seen, unchecked), FACT (checked, with file:line refs), FAIL (what did not work and why), PATCH_SUMMARY (what a change did).",
    "- Search the board (grep_board) before repeating work; it holds the whole history.",
    "- Swarm messages arrive at the start of your next iteration; direct messages when your current tool call returns.",
    "- Release your claim when you finish or give up. A watchdog nudges agents that stop making progress, then releases their claim, then stops them.",
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

/** The whole trunk text. Same inputs, same bytes. */
export function renderTrunk(input: TrunkInput): string {
  const rules = input.rules ?? [];
  const conventions = renderRules(rules);
  const rulesLine = rulesSummaryLine(rules);
  return [
    "# Charter",
    renderCharter(input.recipe),
    "",
    "# Tools",
    renderTools(input.tools),
    "",
    "# Roster",
    renderRoster(input.roster),
    "",
    "# Goal",
    clean(input.goal),
    "",
    "# Workspace",
    clean(input.workspaceSummary),
    ...(rulesLine === "" ? [] : [rulesLine]),
    "",
    ...(conventions === "" ? [] : ["# Conventions", conventions, ""]),
    ...(input.memory ? ["# Memory", input.memory, ""] : []),
  ].join("\n");
}
