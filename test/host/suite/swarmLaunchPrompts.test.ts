// The command palette's launch, answered the way a user would: goal, recipe (the built-ins are offered), the
// model (asked only when none is saved; a picked one is used next time without asking, and loaded in the worker
// while the goal is typed), then the agent count, whose prompt carries the budget's estimate from model/facts.
// The last step is dismissed, so nothing is launched.
import assert from "node:assert/strict";
import * as vscode from "vscode";
import type { LaunchResult } from "../../../src/host/launch/launchArgs";
import type { SwarmboardTestHooks } from "../../../src/host/testHooks";
import { swarmboard, waitFor } from "./hostApi";
import { toolCallingModelPath } from "./toolModel";

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

  afterEach(async () => {
    await vscode.workspace
      .getConfiguration("swarmboard")
      .update("modelPath", undefined, vscode.ConfigurationTarget.Global);
  });

  async function goalAndRecipe(hooks: SwarmboardTestHooks, total: number): Promise<string[]> {
    await answerStep(hooks, `(1/${total})`, (step) => {
      if ("value" in step && !("items" in step)) step.value = "Read the stats module";
    });
    let offered: string[] = [];
    await answerStep(hooks, `(2/${total})`, (step) => {
      offered = "items" in step ? step.items.map((i) => i.label) : [];
      pickItem(step, (l) => l === "research");
    });
    return offered;
  }

  it("asks for the model when none is saved, offering a file or a pull", async () => {
    const { hooks } = await swarmboard();
    const launching = Promise.resolve(vscode.commands.executeCommand<LaunchResult>("swarmboard.launchSwarm"));
    await goalAndRecipe(hooks, 4);
    const model = await waitFor("the model step", () => {
      const s = hooks.swarms.launchStep();
      return s?.title?.includes("(3/4): model") && "items" in s ? s : undefined;
    });
    const labels = model.items.map((i) => i.label);
    assert.ok(
      labels.some((l) => l.includes("Pick a GGUF file")),
      labels.join(", "),
    );
    const pull = model.items.find((i) => i.label.includes("Pull a model"));
    assert.match(pull?.description ?? "", /^hf:<user>\/<repo>:<quant> or an https URL$/);
    model.hide();
    assert.equal((await launching).outcome, "cancelled");
  });

  it("loads a saved model while the goal is typed, so the model step does not wait for it", async () => {
    const { hooks } = await swarmboard();
    const picked = await toolCallingModelPath();
    await vscode.commands.executeCommand("swarmboard.selectModel", { path: picked });
    const name = picked.split(/[\\/]/).pop()!;
    const loadLines = (): number => hooks.log.recentLines().filter((l) => l.includes(`model ${name}: `)).length;
    const before = loadLines();
    const launching = Promise.resolve(vscode.commands.executeCommand<LaunchResult>("swarmboard.launchSwarm"));
    const goal = await waitFor("the goal step", () => {
      const s = hooks.swarms.launchStep();
      return s?.title?.includes("(1/3)") ? s : undefined;
    });
    // Nothing is typed yet: the worker answers model/facts for the saved model while the goal step is open.
    await waitFor("the model loaded while the goal step is open", () => loadLines() > before || undefined, 90_000);
    assert.equal(hooks.swarms.launchStep(), goal, "still on the goal step");
    goal.hide();
    assert.equal((await launching).outcome, "cancelled");
  });

  it("uses a picked model at the next launch without asking, and asks for the agent count with the budget's estimate", async () => {
    const { hooks } = await swarmboard();
    // Picked once (Select Model saves it); the launch after it has no model step.
    // Select Model refuses stories260K (no chat template): a model whose template calls tools is picked.
    const picked = await toolCallingModelPath();
    await vscode.commands.executeCommand("swarmboard.selectModel", { path: picked });
    assert.equal(vscode.workspace.getConfiguration("swarmboard").get("modelPath"), picked);
    const launching = Promise.resolve(vscode.commands.executeCommand<LaunchResult>("swarmboard.launchSwarm"));
    const titles: string[] = [];
    const seen = setInterval(() => {
      const title = hooks.swarms.launchStep()?.title;
      if (title && !titles.includes(title)) titles.push(title);
    }, 50);
    try {
      const offered = await goalAndRecipe(hooks, 3);
      for (const name of ["research", "organization", "fix-failing-tests", "todo-sweep"])
        assert.ok(offered.includes(name), `${name} not offered: ${offered.join(", ")}`);
      const agents = await waitFor(
        "the agent-count step",
        () => {
          const s = hooks.swarms.launchStep();
          return s?.title?.includes("(3/3)") && !("items" in s) ? s : undefined;
        },
        90_000,
      );
      assert.match(
        agents.prompt ?? "",
        /^How many agents\? The recipe has 4; your limit is 8\. The KV budget fits about \d+ agents/,
      );
      assert.equal(agents.value, "4");
      assert.ok(!titles.some((t) => t.includes("model")), `no model step: ${titles.join(" | ")}`);
      agents.hide();
      const result = await launching;
      assert.equal(result.outcome, "cancelled");
    } finally {
      clearInterval(seen);
    }
  });
});
