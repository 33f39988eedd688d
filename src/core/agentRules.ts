// Which agent-rules files a repository may hold, where each is looked for, and how they are cut to size and
// rendered into the trunk as the project's conventions. Pure: the workspace layer reads the files.
import type { AgentRule, AgentRuleListing } from "../protocol/agentRules";

/** A kind of rules file: its name and the paths it may live at, in the order they are tried (first found wins). */
export interface AgentRuleCandidate {
  readonly name: string;
  readonly paths: readonly string[];
}

/** The rules files agents in VS Code read today (Copilot, Claude Code, Cline, Cursor, the AGENTS.md convention). */
export const agentRuleCandidates: readonly AgentRuleCandidate[] = [
  { name: "AGENTS.md", paths: ["AGENTS.md", "agents.md", ".github/AGENTS.md"] },
  { name: ".github/copilot-instructions.md", paths: [".github/copilot-instructions.md"] },
  { name: "CLAUDE.md", paths: ["CLAUDE.md", ".claude/CLAUDE.md"] },
  { name: ".clinerules", paths: [".clinerules", ".clinerules/rules.md"] },
  { name: ".cursorrules", paths: [".cursorrules"] },
];

/**
 * Characters of one rules file that go into the trunk. The trunk is decoded once and shared, but every agent
 * attends over it at each step: a 40 KB AGENTS.md would cost more than it tells a small model.
 */
export const agentRuleCharCap = 4000;

/** Cuts a file's text to the cap (at a line end when one is near) and says whether it was cut. */
export function capRule(name: string, path: string, text: string, cap = agentRuleCharCap): AgentRule {
  const clean = text.replace(/\r\n?/g, "\n").trim();
  if (clean.length <= cap) return { name, path, text: clean, chars: clean.length, cut: false };
  const head = clean.slice(0, cap);
  const lineEnd = head.lastIndexOf("\n");
  const kept = lineEnd > cap * 0.8 ? head.slice(0, lineEnd) : head;
  return { name, path, text: kept.trimEnd(), chars: clean.length, cut: true };
}

/** One line per rule for summaries and views: "AGENTS.md (1,234 chars)" or "... (cut at 4,000 of 9,876 chars)". */
export function describeRule(rule: AgentRuleListing, cap = agentRuleCharCap): string {
  const size = rule.cut
    ? `cut at ${cap.toLocaleString("en-US")} of ${rule.chars.toLocaleString("en-US")} chars`
    : `${rule.chars.toLocaleString("en-US")} chars`;
  return `${rule.path} (${size})`;
}

/** The listing of rules without their text (what the swarm-started event carries). */
export function listRules(rules: readonly AgentRule[]): AgentRuleListing[] {
  return rules.map(({ name, path, chars, cut }) => ({ name, path, chars, cut }));
}

/** The workspace summary's line that lists the rules in the trunk, or "" when there are none. */
export function rulesSummaryLine(rules: readonly AgentRuleListing[]): string {
  if (rules.length === 0) return "";
  return `Agent rules from the repository (in # Conventions below): ${rules.map((r) => describeRule(r)).join(", ")}`;
}

/** The trunk's conventions section; empty when the repository has no rules (or they are turned off). */
export function renderRules(rules: readonly AgentRule[]): string {
  if (rules.length === 0) return "";
  const bodies = rules.map(
    (r) =>
      `## ${r.path}\n${r.text}${r.cut ? `\n(cut here at ${agentRuleCharCap.toLocaleString("en-US")} characters: the rest of ${r.path} is in the repository; read it with read_file)` : ""}`,
  );
  return [
    "The repository's own rules for agents. Follow them as its conventions wherever they apply to your work.",
    "",
    bodies.join("\n\n"),
  ].join("\n");
}
