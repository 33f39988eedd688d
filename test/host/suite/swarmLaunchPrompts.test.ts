// The command palette's launch, answered the way a user would: goal, recipe (the built-ins are offered), the
// configured model (loaded in the worker under a progress notification), then the agent count, whose prompt
// carries the budget's estimate from model/facts. The last step is dismissed, so nothing is launched.
import assert from "node:assert/strict";
import path from "node:path";
import * as vscode from "vscode";
import type { LaunchResult } from "../../../src/host/launch/launchArgs";
import type { SwarmboardTestHooks } from "../../../src/host/testHooks";
import { swarmboard, waitFor } from "./hostApi";

const repoRoot = path.resolve(__dirname, "../../../..");
const modelPath = path.join(
  process.env.SWARMBOARD_MODELS_DIR ?? path.resolve(repoRoot, "../shared/models"),
  "stories260K.gguf",
);

type Step = NonNullable<ReturnType<SwarmboardTestHooks["swarms"]["launchStep"]>>;

/** Waits for the step whose title has `marker`, lets `answer` fill it, and presses Enter until the step is gone. */
async function answerStep(hooks: SwarmboardTestHooks, marker: string, answer: (step: Step) => void): Promise<void> {
  const step = await waitFor(
    `the launch step ${marker}`,
    () => {
      const s = hooks.swarms.launchStep();
      return s?.title?.includes(marker) ? s : undefined;
    },
    60_000,
  );
  const deadline = Date.now() + 20_000;
  while (hooks.swarms.launchStep() === step) {
    if (Date.now() > deadline) throw new Error(`the launch step ${marker} did not accept its answer`);
    answer(step);
    await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
    await new Promise((r) => setTimeout(r, 200));
  }
}

function pickItem(step: Step, match: (label: string) => boolean): void {
  assert.ok("items" in step, `${step.title} is not a quick pick`);
  const item = step.items.find((i) => match(i.label));
  assert.ok(item, `${step.title} offers no such item: ${step.items.map((i) => i.label).join(", ")}`);
  step.activeItems = [item];
}

describe("launching from the command palette", function () {
  this.timeout(120_000);

  it("asks for the goal, the recipe, the model and the agent count with the budget's estimate", async () => {
    const { hooks } = await swarmboard();
    const config = vscode.workspace.getConfiguration("swarmboard");
    await config.update("modelPath", modelPath, vscode.ConfigurationTarget.Global);
    try {
      const launching = Promise.resolve(vscode.commands.executeCommand<LaunchResult>("swarmboard.launchSwarm"));
      await answerStep(hooks, "(1/4)", (step) => {
        if ("value" in step && !("items" in step)) step.value = "Read the stats module";
      });
      let offered: string[] = [];
      await answerStep(hooks, "(2/4)", (step) => {
        offered = "items" in step ? step.items.map((i) => i.label) : [];
        pickItem(step, (l) => l === "research");
      });
      for (const name of ["research", "organization", "fix-failing-tests", "todo-sweep"])
        assert.ok(offered.includes(name), `${name} not offered: ${offered.join(", ")}`);
      await answerStep(hooks, "(3/4)", (step) => pickItem(step, (l) => l.includes("Configured model")));
      const agents = await waitFor(
        "the agent-count step",
        () => {
          const s = hooks.swarms.launchStep();
          return s?.title?.includes("(4/4)") && !("items" in s) ? s : undefined;
        },
        90_000,
      );
      assert.match(
        agents.prompt ?? "",
        /^How many agents\? The recipe has 4; your limit is 8\. The KV budget fits about \d+ agents/,
      );
      assert.equal(agents.value, "4");
      agents.hide();
      const result = await launching;
      assert.equal(result.outcome, "cancelled");
    } finally {
      await config.update("modelPath", undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
