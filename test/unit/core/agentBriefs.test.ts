// An agent's own brief says only what the shared trunk does not: the roles' instructions, the open tasks at launch
// and the budget advice are in the trunk, decoded once; the brief names the agent and where to look.
import assert from "node:assert/strict";
import { agentBrief } from "../../../src/core/agentBriefs";
import { renderCharter } from "../../../src/core/trunkPrompt";
import { builtinRecipes } from "../../../src/core/recipeCatalog";

const recipe = builtinRecipes().get("organization")!;
const role = recipe.roles[0]!;
const tasks = [
  { id: "t1", title: "Fix median for even-length lists" },
  { id: "t2", title: "Add variance" },
].map((t) => ({ ...t, kind: "goal" as const, detail: t.title, refs: [], key: t.id }));

describe("an agent's brief", () => {
  it("points a launch seat at the trunk's tasks and roles instead of repeating them", () => {
    const brief = agentBrief("agent-3", role, tasks, true);
    assert.equal(brief, "You are agent-3, a worker.", "only who it is: the charter says what to claim");
    assert.match(renderCharter(recipe), /A brief that lists no tasks means: claim one of the tasks under Open work/);
    assert.ok(!brief.includes("[t1]") && !brief.includes(role.instructions), brief);
    assert.ok(renderCharter(recipe).includes(role.instructions), "the role's instructions are in the charter");
    assert.match(renderCharter(recipe), /Every tool result ends with "left"/, "the budget advice is in the charter");
  });

  it("lists the tasks open now for a seat that starts later, and says when none is open", () => {
    assert.match(
      agentBrief("agent-9", role, tasks),
      /claim one by its id.*:\n- \[t1\] Fix median.*\n- \[t2\] Add variance/,
    );
    assert.match(agentBrief("agent-9", role, []), /No task is open: claim an angle of the goal\./);
    assert.match(agentBrief("agent-9", role, [], true), /No task is open/, "nothing in the trunk to point at");
  });
});
