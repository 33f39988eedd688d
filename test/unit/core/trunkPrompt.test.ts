import { strict as assert } from "assert";
import { promises as fs } from "fs";
import * as path from "path";
import { builtinRecipes } from "../../../src/core/recipeCatalog";
import {
  joinTrunk,
  renderTrunk,
  renderTrunkParts,
  type ToolDescription,
  type TrunkInput,
} from "../../../src/core/trunkPrompt";
import { z } from "zod";
import type { AgentRule } from "../../../src/protocol/agentRules";
import { boardToolArgSchemas, boardToolDescriptions, type BoardToolName } from "../../../src/protocol/boardTools";

const golden = path.resolve(__dirname, "../../../../test/fixtures/board/trunk-organization.golden.txt");

/** The organisation's tools as the trunk documents them. */
function tools(): ToolDescription[] {
  return (Object.keys(boardToolArgSchemas) as BoardToolName[]).map((name) => ({
    name,
    description: boardToolDescriptions[name],
    parameters: z.toJSONSchema(boardToolArgSchemas[name], { io: "input" }),
  }));
}

function input(): TrunkInput {
  const recipe = builtinRecipes().get("organization");
  if (recipe === undefined) throw new Error("the organization recipe is missing");
  return {
    recipe,
    goal: "Make the merge queue retry on index.lock.\r\n",
    tools: tools(),
    roster: [
      { agent: "worker-2", role: "worker", covers: "src/workspace/gitQueue.ts" },
      { agent: "worker-1", role: "worker", covers: "tests of the merge queue" },
      { agent: "synthesist-1", role: "synthesist", covers: "the summary" },
    ],
    workspaceSummary: "TypeScript, npm; tests: npm run test:unit   \n",
    openWork:
      "Open tasks: [goal-1] Make the merge queue retry on index.lock.\nThe board is empty: this is a new swarm.",
    memory: "Memories of earlier swarms:\n- [m1] FACT: the queue takes index.lock",
  };
}

/** A repository's agent rules (the same for every swarm on it). */
const rules: AgentRule[] = [{ name: "AGENTS.md", path: "AGENTS.md", text: "Use npm.", chars: 8, cut: false }];

/** Reverses object key orders (array order is meaning, e.g. an enum's): the same inputs written differently. */
function reorder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reorder);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reorder(v)]),
    );
  }
  return value;
}

describe("trunk prompt", () => {
  it("renders the same bytes for the same inputs, whatever their order", () => {
    const a = renderTrunk(input());
    const shuffled = input();
    const b = renderTrunk({
      ...shuffled,
      tools: [...shuffled.tools].reverse().map((t) => ({ ...t, parameters: reorder(t.parameters) })),
      roster: [...shuffled.roster].reverse(),
    });
    assert.equal(b, a);
    assert.equal(renderTrunk(input()), a);
    assert.ok(!a.includes("\r"), "line ends are \\n only");
  });

  it("matches the golden file (update it on purpose when the charter changes)", async () => {
    const expected = await fs.readFile(golden, "utf8").catch((e: Error) => {
      throw new Error(`Golden file missing at ${golden} (${e.message}); it is part of the repository.`);
    });
    assert.equal(renderTrunk(input()), expected);
  });

  it("holds the charter, tools in name order, the workspace, the roster, the goal, the open work and memories", () => {
    const text = renderTrunk({ ...input(), rules });
    const order = [
      "# Charter",
      "# Tools",
      "## claim",
      "## grep_board",
      "## post_finding",
      "## release",
      "## send_message",
      "# Workspace",
      "Agent rules from the repository",
      "# Conventions",
      "# Roster",
      "- synthesist-1",
      "- worker-1",
      "- worker-2",
      "# Goal",
      "# Open work",
      "# Memory",
    ];
    let at = -1;
    for (const marker of order) {
      const next = text.indexOf(marker, at + 1);
      assert.ok(next > at, `${marker} comes after the previous section`);
      at = next;
    }
    assert.match(text, /gather context .* -> claim a sub-task ->\nact with tools -> verify/);
    assert.match(text, /Findings are shared/);
  });

  it("puts everything a second swarm on the repository shares before its own goal, open work and memories", () => {
    const first = renderTrunk({ ...input(), rules });
    const second = renderTrunk({
      ...input(),
      rules,
      goal: "Say what the README promises.",
      openWork: "Open tasks: [goal-2] Say what the README promises.\nThe board is empty: this is a new swarm.",
      memory: "Memories of earlier swarms:\n- [m2] FACT: the README promises one model",
    });
    let shared = 0;
    while (shared < first.length && first[shared] === second[shared]) shared++;
    // The two differ first in the goal: charter, tools, workspace, conventions and roster are one prefix.
    assert.equal(shared, first.indexOf("# Goal\n") + "# Goal\n".length);
    // A swarm whose open work or memories differ but whose goal is the same shares the goal too.
    const again = renderTrunk({ ...input(), rules, memory: "Memories of earlier swarms:\n- [m3] FACT: new" });
    assert.ok(again.startsWith(first.slice(0, first.indexOf("# Memory"))), "all but the memories are shared");
  });

  it("splits the trunk into the repository's part (the system text) and the swarm's (the user turn's start)", () => {
    const parts = renderTrunkParts({ ...input(), rules });
    const other = renderTrunkParts({ ...input(), rules, goal: "Another goal.", openWork: "", memory: "" });
    assert.equal(other.repository, parts.repository, "two swarms on one repository: one system text");
    assert.ok(parts.repository.startsWith("# Charter\n") && parts.repository.endsWith("## AGENTS.md\nUse npm."));
    assert.ok(parts.swarm.startsWith("# Roster\n") && parts.swarm.endsWith("FACT: the queue takes index.lock\n"));
    assert.equal(joinTrunk(parts), renderTrunk({ ...input(), rules }));
  });

  it("describes private pads for a research swarm and refuses a tool listed twice", () => {
    const recipe = builtinRecipes().get("research");
    assert.ok(recipe !== undefined);
    assert.match(
      renderTrunk({ ...input(), recipe }),
      /Findings stay on your own pad until the synthesist \(synthesist\) fans in/,
    );
    const twice = [...tools(), tools()[0]];
    assert.throws(() => renderTrunk({ ...input(), tools: twice }), /Tool "post_finding" is listed twice/);
  });
});
