import { strict as assert } from "assert";
import { promises as fs } from "fs";
import * as path from "path";
import { builtinRecipes } from "../../../src/core/recipeCatalog";
import { renderTrunk, type ToolDescription, type TrunkInput } from "../../../src/core/trunkPrompt";
import { z } from "zod";
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
  };
}

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

  it("holds the charter, tools in name order, the roster, the goal and the workspace", () => {
    const text = renderTrunk(input());
    const order = [
      "# Charter",
      "# Tools",
      "## claim",
      "## grep_board",
      "## post_finding",
      "## release",
      "## send_message",
      "# Roster",
      "- synthesist-1",
      "- worker-1",
      "- worker-2",
      "# Goal",
      "# Workspace",
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
