import { strict as assert } from "assert";
import { promises as fs } from "fs";
import * as os from "os";
import * as path from "path";
import { builtinRecipeNames } from "../../../src/core/builtinRecipes";
import { buildRecipeCatalog, builtinRecipes } from "../../../src/core/recipeCatalog";
import { formatRecipeProblem, parseRecipeText, RecipeError, type RecipeProblem } from "../../../src/core/recipeParse";
import { loadRecipeCatalog, readRecipeFiles } from "../../../src/workspace/recipeFiles";

const fixtures = path.resolve(__dirname, "../../../../test/fixtures/board/recipes");

const valid = {
  name: "mini",
  description: "d",
  roles: [{ name: "worker", count: 1, tools: ["read_file"], instructions: "work" }],
  topology: { kind: "fanout" },
  budgets: { wallClockMs: 1000, tokensPerAgent: 10, kvCells: 10, steps: 1 },
};

function problems(value: unknown, knownTools?: string[]): RecipeProblem[] {
  const result = parseRecipeText(
    "mine.json",
    JSON.stringify(value),
    knownTools === undefined ? {} : { knownTools: new Set(knownTools) },
  );
  return result.ok ? [] : [...result.problems];
}

function withField(patch: (r: Record<string, unknown>) => void): unknown {
  const copy = JSON.parse(JSON.stringify(valid)) as Record<string, unknown>;
  patch(copy);
  return copy;
}

describe("recipes", () => {
  it("has the four built-ins, all valid against the tool names they use", () => {
    assert.deepEqual(builtinRecipeNames, ["research", "organization", "fix-failing-tests", "todo-sweep"]);
    const recipes = builtinRecipes();
    assert.equal(recipes.get("research")?.visibility, "private-pads");
    assert.equal(recipes.get("research")?.synthesist, "synthesist");
    assert.equal(recipes.get("organization")?.merge, true);
    assert.deepEqual(recipes.get("fix-failing-tests")?.taskSources, ["test-failures"]);
    assert.deepEqual(recipes.get("todo-sweep")?.taskSources, ["todo-comments"]);
  });

  it("parses a valid recipe and fills defaults", () => {
    const result = parseRecipeText("mine.json", JSON.stringify(valid));
    assert.ok(result.ok);
    assert.equal(result.recipe.visibility, "shared");
    assert.deepEqual(result.recipe.taskSources, ["goal"]);
  });

  const mistakes: Array<{ name: string; value: unknown; field: string; expected: RegExp; got?: string }> = [
    {
      name: "a count as text",
      value: withField((r) => ((r.roles as Array<Record<string, unknown>>)[0].count = "two")),
      field: "roles[0].count",
      expected: /expected a whole number of agents/,
      got: '"two"',
    },
    {
      name: "a missing budget",
      value: withField((r) => delete (r.budgets as Record<string, unknown>).steps),
      field: "budgets.steps",
      expected: /expected a number of steps/,
      got: "nothing (the field is missing)",
    },
    {
      name: "a misspelt field",
      value: withField((r) => (r.visiblity = "shared")),
      field: "visiblity",
      expected: /no such field here .*check the spelling/,
    },
    {
      name: "an unknown topology",
      value: withField((r) => (r.topology = { kind: "star" })),
      field: "topology.kind",
      expected: /expected a topology with kind "fanout", "chain" or "dag"/,
    },
    {
      name: "a bad visibility",
      value: withField((r) => (r.visibility = "public")),
      field: "visibility",
      expected: /shared.*private-pads/,
      got: '"public"',
    },
    {
      name: "a chain naming a missing role",
      value: withField((r) => (r.topology = { kind: "chain", order: ["worker", "tester"] })),
      field: "topology.order[1]",
      expected: /a role of this recipe \(worker\)/,
      got: '"tester"',
    },
    {
      name: "a synthesist that is not a role",
      value: withField((r) => (r.synthesist = "boss")),
      field: "synthesist",
      expected: /a role of this recipe/,
    },
    {
      name: "private pads without a synthesist",
      value: withField((r) => (r.visibility = "private-pads")),
      field: "synthesist",
      expected: /a synthesist role/,
    },
    {
      name: "test failures without a command",
      value: withField((r) => (r.taskSources = ["test-failures"])),
      field: "testCommand",
      expected: /a test command/,
    },
    {
      name: "review without an integrator",
      value: withField((r) => (r.review = { approvals: 1 })),
      field: "review",
      expected: /a role with the tool "integrate_branch"/,
    },
    {
      name: "review asking for no approval",
      value: withField((r) => (r.review = { approvals: 0 })),
      field: "review.approvals",
      expected: /at least 1 approval/,
    },
    {
      name: "a role name used twice",
      value: withField((r) => (r.roles = [...(r.roles as unknown[]), ...(r.roles as unknown[])])),
      field: "roles[1].name",
      expected: /used only once/,
    },
    {
      name: "a DAG stage after a missing stage",
      value: withField(
        (r) => (r.topology = { kind: "dag", stages: [{ name: "one", roles: ["worker"], after: ["zero"] }] }),
      ),
      field: "topology.stages[0].after[0]",
      expected: /a stage of this recipe \(one\)/,
    },
    {
      name: "a DAG with a cycle",
      value: withField(
        (r) =>
          (r.topology = {
            kind: "dag",
            stages: [
              { name: "one", roles: ["worker"], after: ["two"] },
              { name: "two", roles: ["worker"], after: ["one"] },
            ],
          }),
      ),
      field: "topology.stages[0].after",
      expected: /without a cycle \(found one -> two -> one\)/,
    },
    {
      name: "a bad role name",
      value: withField((r) => ((r.roles as Array<Record<string, unknown>>)[0].name = "Big Worker")),
      field: "roles[0].name",
      expected: /lower-case name/,
    },
  ];
  for (const m of mistakes) {
    it(`names the file, the field and what was expected for ${m.name}`, () => {
      const found = problems(m.value);
      const p = found.find((x) => x.field === m.field);
      assert.ok(p !== undefined, `a problem at ${m.field}; got ${found.map(formatRecipeProblem).join(" | ")}`);
      assert.equal(p.file, "mine.json");
      assert.match(p.expected, m.expected);
      if (m.got !== undefined) assert.equal(p.got, m.got);
      assert.match(formatRecipeProblem(p), new RegExp(`^mine\\.json: field "${m.field.replace(/[[\].]/g, "\\$&")}": `));
    });
  }

  it("checks tool names when the catalogue is given", () => {
    const found = problems(valid, ["search"]);
    assert.equal(found[0].field, "roles[0].tools[0]");
    assert.equal(
      formatRecipeProblem(found[0]),
      `mine.json: field "roles[0].tools[0]": one of the tools search, got "read_file"`,
    );
  });

  it("reports a file that is not JSON", () => {
    const result = parseRecipeText("bad.json", "{ name: ");
    assert.ok(!result.ok);
    assert.equal(result.problems[0].field, "(file)");
    assert.match(result.problems[0].expected, /^valid JSON/);
    assert.throws(() => {
      throw new RecipeError(result.problems);
    }, /^RecipeError: bad\.json: field "\(file\)": valid JSON/);
  });

  it("a user recipe overrides a built-in of the same name; two files with one name are a problem", () => {
    const research = { ...valid, name: "research" };
    const catalog = buildRecipeCatalog([
      { file: "b.json", text: JSON.stringify(research) },
      { file: "a.json", text: JSON.stringify({ ...valid }) },
      { file: "c.json", text: JSON.stringify({ ...valid }) },
    ]);
    assert.equal(catalog.origins.get("research"), "b.json");
    assert.equal(catalog.origins.get("mini"), "a.json");
    assert.equal(catalog.origins.get("organization"), "built-in");
    assert.equal(catalog.problems.length, 1);
    assert.match(
      formatRecipeProblem(catalog.problems[0]),
      /^c\.json: field "name": a name not already used by a\.json, got "mini"$/,
    );
  });

  it("loads .swarmboard/recipes/*.json from a workspace, keeping good files and naming the broken one", async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "swarmboard-recipes-"));
    try {
      assert.deepEqual(await readRecipeFiles(root), [], "no folder, no user recipes");
      const folder = path.join(root, ".swarmboard", "recipes");
      await fs.mkdir(folder, { recursive: true });
      for (const name of ["review-pairs.json", "broken-count.json"])
        await fs.copyFile(path.join(fixtures, name), path.join(folder, name));
      await fs.writeFile(path.join(folder, "notes.txt"), "not a recipe");
      const catalog = await loadRecipeCatalog(root);
      assert.equal(catalog.recipes.get("review-pairs")?.topology.kind, "chain");
      assert.equal(catalog.recipes.has("broken-count"), false);
      assert.deepEqual(catalog.problems.map(formatRecipeProblem), [
        '.swarmboard/recipes/broken-count.json: field "roles[0].count": expected a whole number of agents, got "two"',
      ]);
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });
});
