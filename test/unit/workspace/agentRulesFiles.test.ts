// The repository's agent-rules files, read from HEAD of a real git repository and rendered into the trunk:
// first found per name, cut at the cap (and saying so), symlinks and uncommitted edits never read, and the
// trunk of a repository with an AGENTS.md matches its golden file.
import { strict as assert } from "node:assert";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { agentRuleCharCap, capRule } from "../../../src/core/agentRules";
import { builtinRecipes } from "../../../src/core/recipeCatalog";
import { renderTrunk } from "../../../src/core/trunkPrompt";
import { readAgentRules } from "../../../src/workspace/agentRulesFiles";
import { git, removeDir, tempDir } from "./gitFixture";

const golden = path.resolve(__dirname, "../../../../test/fixtures/board/trunk-agents-md.golden.txt");
const agentsMd = "# Conventions\r\n\r\n- Use `npm test` before merging.\n- Never edit generated files under dist/.\n";

function repoWith(files: Record<string, string>): string {
  const dir = tempDir("rules");
  git(dir, "init", "-q", "-b", "main");
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "rules");
  return dir;
}

describe("agent rules files", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("reads each name's first candidate found at HEAD, in the candidates' order", async () => {
    const dir = repoWith({
      "AGENTS.md": agentsMd,
      ".github/AGENTS.md": "a second AGENTS.md, never read",
      ".claude/CLAUDE.md": "Claude: keep functions short.",
      ".cursorrules": "   \n",
      "src/index.js": "module.exports = 1;\n",
    });
    dirs.push(dir);
    const rules = await readAgentRules(dir);
    assert.deepEqual(
      rules.map((r) => [r.name, r.path, r.cut]),
      [
        ["AGENTS.md", "AGENTS.md", false],
        ["CLAUDE.md", ".claude/CLAUDE.md", false],
      ],
      "an empty .cursorrules is left out",
    );
    assert.equal(
      rules[0]?.text,
      "# Conventions\n\n- Use `npm test` before merging.\n- Never edit generated files under dist/.",
    );
  });

  it("cuts a long file at the cap and says how long it was", async () => {
    const long = Array.from({ length: 400 }, (_, i) => `- rule ${i}: write tests first`).join("\n");
    const dir = repoWith({ ".clinerules": long });
    dirs.push(dir);
    const [rule] = await readAgentRules(dir);
    assert.ok(rule, "the .clinerules file is read");
    assert.equal(rule.cut, true);
    assert.equal(rule.chars, long.length);
    assert.ok(rule.text.length <= agentRuleCharCap && rule.text.length > agentRuleCharCap * 0.8, `${rule.text.length}`);
    assert.ok(long.startsWith(rule.text) && rule.text.endsWith("write tests first"), "cut at a line end");
    const trunk = renderTrunk({ ...input(), rules: [rule] });
    assert.match(trunk, /\.clinerules \(cut at 4,000 of 11,889 chars\)/);
    assert.match(trunk, /cut here at 4,000 characters: the rest of \.clinerules is in the repository/);
  });

  it("never reads a symlink or an uncommitted edit", async () => {
    const dir = repoWith({ "outside.txt": "secret", "AGENTS.md": "committed rules" });
    dirs.push(dir);
    symlinkSync("outside.txt", path.join(dir, "CLAUDE.md"));
    git(dir, "add", "CLAUDE.md");
    git(dir, "commit", "-qm", "a symlink");
    writeFileSync(path.join(dir, "AGENTS.md"), "an uncommitted edit");
    const rules = await readAgentRules(dir);
    assert.deepEqual(
      rules.map((r) => [r.path, r.text]),
      [["AGENTS.md", "committed rules"]],
    );
  });

  it("puts a repository's AGENTS.md into the trunk (golden file)", async () => {
    const dir = repoWith({ "AGENTS.md": agentsMd });
    dirs.push(dir);
    const trunk = renderTrunk({ ...input(), rules: await readAgentRules(dir) });
    const expected = (() => {
      try {
        return readFileSync(golden, "utf8");
      } catch (e) {
        throw new Error(`Golden file missing at ${golden} (${(e as Error).message}); it is part of the repository.`);
      }
    })();
    assert.equal(trunk, expected);
    assert.equal(renderTrunk({ ...input(), rules: [] }), renderTrunk(input()), "no rules, no section");
  });

  it("keeps a short file whole", () => {
    assert.deepEqual(capRule("AGENTS.md", "AGENTS.md", "\r\nshort\r\n"), {
      name: "AGENTS.md",
      path: "AGENTS.md",
      text: "short",
      chars: 5,
      cut: false,
    });
  });
});

function input() {
  const recipe = builtinRecipes().get("research");
  if (recipe === undefined) throw new Error("the research recipe is missing");
  return {
    recipe,
    goal: "Find what the stats module does.",
    tools: [],
    roster: [{ agent: "agent-1", role: "researcher", covers: "claims its own task from the open tasks" }],
    workspaceSummary: "Files at HEAD (1): AGENTS.md",
  };
}
