import { strict as assert } from "assert";
import { suggestRecipe, type ProjectFacts } from "../../../src/core/recipeSuggestion";

const failing: ProjectFacts = { testCommand: "npm test", failingTests: 3, todoComments: 4 };
const tested: ProjectFacts = { testCommand: "npm test", todoComments: 4 };

describe("suggestRecipe", () => {
  const table: Array<[goal: string, facts: ProjectFacts, recipe: string, reason: RegExp]> = [
    // The Done-when: a repository with failing tests gets fix-failing-tests.
    ["Get the project healthy again", failing, "fix-failing-tests", /^3 tests fail in npm test: /],
    ["", { testCommand: "npm test", failingTests: 1 }, "fix-failing-tests", /^1 test fails in npm test/],
    ["Make the failing mocha tests pass", {}, "fix-failing-tests", /no test script found/],
    ["Make the failing mocha tests pass", tested, "fix-failing-tests", /the project tests with npm test/],
    ["Make the failing mocha tests pass", failing, "fix-failing-tests", /^3 tests fail in npm test/],
    ["The tests are red", { testCommand: "npm test", failingTests: 0 }, "fix-failing-tests", /npm test passes now/],
    ["Resolve the TODO comments in src", tested, "todo-sweep", /\(4 comments at HEAD\)/],
    ["sweep fixmes", { todoComments: 1 }, "todo-sweep", /\(1 comment at HEAD\)/],
    ["Clear the TODOs", { todoComments: 0 }, "todo-sweep", /none found at HEAD/],
    ["What does median do with even-length lists?", failing, "research", /question/],
    ["How is the board persisted", {}, "research", /question/],
    ["the cache is slow?", {}, "research", /question/],
    ["Fix median for even-length lists", failing, "organization", /change.*3 tests fail in npm test/],
    ["Add a --verbose flag to the CLI", tested, "organization", /^The goal asks for a change: workers take/],
    ["Refactor the parser into modules", {}, "organization", /change/],
    ["Can you add a cache to the loader?", {}, "organization", /change/],
    ["Could you please rename the stats module", {}, "organization", /change/],
    ["Can the loader cache its results?", {}, "research", /question/],
    // TODOs alone are no request to sweep them; a vague goal falls back to research.
    ["The stats module", tested, "research", /No clear signal/],
  ];
  for (const [goal, facts, recipe, reason] of table)
    it(`${JSON.stringify(goal)} with ${JSON.stringify(facts)} -> ${recipe}`, () => {
      const s = suggestRecipe(goal, facts);
      assert.equal(s.recipe, recipe, s.reason);
      assert.match(s.reason, reason);
    });

  it("suggests from the goal alone before any fact arrives", () => {
    assert.equal(suggestRecipe("Make the failing mocha tests pass").recipe, "fix-failing-tests");
    assert.equal(suggestRecipe("Why does it crash?").recipe, "research");
  });
});
