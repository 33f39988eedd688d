// The launch's test command for a recipe that names none: detected from the workspace (a real repository here),
// said in a warning line; a recipe's own testCommand wins; `verify: "off"` skips the detection; nothing found is
// said too. The recipe field is parsed like the others: "on" or "off", a clear message otherwise.
import { strict as assert } from "assert";
import { builtinRecipes } from "../../../src/core/recipeCatalog";
import { parseRecipeValue } from "../../../src/core/recipeParse";
import type { Recipe } from "../../../src/protocol/recipe";
import { withDetectedTestCommand } from "../../../src/worker/swarm/recipeTestCommand";
import { git, removeDir, tempDir, write } from "../workspace/gitFixture";

describe("the launch's test command for a recipe without one", function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));
  const organisation = (): Recipe => builtinRecipes().get("organization")!;

  function repo(files: Record<string, string>): string {
    const dir = tempDir("launch-tests");
    dirs.push(dir);
    git(dir, "-c", "init.defaultBranch=main", "init", "-q");
    for (const [rel, content] of Object.entries(files)) write(dir, rel, content);
    return dir;
  }

  it("gives the organisation recipe the workspace's command, with a line saying so", async () => {
    const go = repo({ "go.mod": "module example.com/x\n" });
    const { recipe, warning } = await withDetectedTestCommand(organisation(), go);
    assert.equal(recipe.testCommand, "go test ./...");
    assert.match(warning ?? "", /merges are verified with "go test \.\/\.\.\." \(from go\.mod\)/);
    assert.match(warning ?? "", /"verify": "off" to merge unverified/);
  });

  it("keeps the recipe's own command, skips detection when verify is off, and says when nothing is found", async () => {
    const go = repo({ "go.mod": "module example.com/x\n" });
    const own = { ...organisation(), testCommand: "make check" };
    assert.deepEqual(await withDetectedTestCommand(own, go), { recipe: own });
    const off: Recipe = { ...organisation(), verify: "off" };
    assert.deepEqual(await withDetectedTestCommand(off, go), { recipe: off });
    const none = await withDetectedTestCommand(organisation(), repo({ "README.md": "# x\n" }));
    assert.equal(none.recipe.testCommand, undefined);
    assert.match(none.warning ?? "", /none was found .* merges are published unverified/);
  });

  it('parses verify as "on" or "off"', () => {
    const input = { ...organisation(), name: "mine" };
    const off = parseRecipeValue("mine.json", { ...input, verify: "off" });
    assert.ok(off.ok);
    assert.equal(off.recipe.verify, "off");
    const bad = parseRecipeValue("mine.json", { ...input, verify: "sometimes" });
    assert.ok(!bad.ok);
    assert.match(JSON.stringify(bad.problems), /expected \\"on\\" or \\"off\\"/);
  });
});
