// Issue 29 in the real host: a watching swarm that nobody serves says so. A standing swarm whose router may take
// one step (its recipe's `budgets.steps` is 1) starts; the person writes a TypeScript file with a type error and
// saves it; TypeScript's own language server reports the error, which reaches the router as a trigger. The router's
// one step takes it, then its budget is spent and it ends without deciding: the swarm runs on, but nothing routes
// its triggers. The tree, the status bar and the panel say "not served" (not "running"), a notice says why and what
// to do (the budget's name), and the trigger queue shows the saved error waiting for the router.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import { watchRecipeInput } from "../../../src/core/builtinRecipes";
import type { TurnScript } from "../../../src/protocol/turnScript";
import { requestScreenshot } from "./automationMarkers";
import { noSwarmRunning, stopSwarmsLeftRunning, swarmboard, waitFor } from "./hostApi";
import { modelPath, sampleRepo } from "./reviewSwarmRun";

// More waits than the budget allows: the router ends by its budget, not because its script ran out.
const script: TurnScript = { agents: { "agent-1": Array(4).fill({ tool: "wait_for_triggers", args: {} }) } };
const tsconfig = { compilerOptions: { strict: true, noEmit: true, target: "es2022" }, include: ["src"] };

describe("Start Watching: a swarm whose router's budget is spent is shown not served", function () {
  this.timeout(300_000);
  after(async () => stopSwarmsLeftRunning((await swarmboard()).hooks));

  it("says not served everywhere, tells why and what to do, and lists the saved TypeScript error as waiting", async () => {
    const { hooks } = await swarmboard();
    await waitFor("the worker to be ready", () => hooks.worker.state.state === "ready", 60_000);
    await noSwarmRunning(hooks);
    const { root, repo } = sampleRepo("not-served", (r) =>
      writeFileSync(path.join(r, "tsconfig.json"), JSON.stringify(tsconfig)),
    );
    const recipe = path.join(root, "watch-one-step.json");
    const budgets = { ...watchRecipeInput.budgets, steps: 1 };
    writeFileSync(
      recipe,
      JSON.stringify({ ...watchRecipeInput, name: "watch-one-step", budgets, testCommand: "node -e 0" }),
    );
    const result = await vscode.commands.executeCommand<{ outcome: string; swarmId?: string; reason?: string }>(
      "swarmboard.startWatching",
      {
        workspace: repo,
        recipe,
        modelPath: modelPath("tiny-random-qwen2-chatml.gguf"),
        threads: 2,
        kvCells: 16_384,
        script,
      },
    );
    assert.equal(result?.outcome, "launched", result?.reason);
    const swarmId = result!.swarmId!;
    const swarm = () => hooks.swarms.store.swarm(swarmId);
    await waitFor("the router to start", () => (swarm()?.agents.length ?? 0) >= 1, 120_000);

    // A TypeScript error, written and saved in the editor; the language server finds it.
    const file = path.join(repo, "src", "total.ts");
    writeFileSync(file, "export function total(values: number[]): number {\n  return values.length;\n}\n");
    const document = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(document);
    const edited = await editor.edit((e) =>
      e.insert(new vscode.Position(3, 0), 'export const none: number = "zero";\n'),
    );
    assert.ok(edited && document.isDirty, `the edit applied (edited ${edited}, dirty ${document.isDirty})`);
    assert.equal(await document.save(), true, `the editor saved the file (dirty ${document.isDirty})`);
    const tsError = await waitFor(
      "TypeScript's error in src/total.ts",
      () => vscode.languages.getDiagnostics(document.uri).find((d) => d.source === "ts" && d.range.start.line === 3),
      180_000,
    );
    assert.match(tsError.message, /not assignable to type 'number'/);
    const logged = () =>
      hooks.log
        .recentLines()
        .filter((l) => /trigger|total\.ts/i.test(l))
        .join("\n");
    await waitFor(
      "the error as a trigger",
      () => swarm()?.triggers?.recent.find((t) => t.what === "src/total.ts:4"),
      60_000,
    ).catch((error: Error) =>
      assert.fail(`${error.message}; the host's log on triggers:\n${logged()}\n${JSON.stringify(swarm()?.triggers)}`),
    );

    const swarmRoot = () => hooks.swarmsView.roots().find((n) => n.kind === "swarm" && n.swarmId === swarmId);
    const node = await waitFor(
      "the swarm shown not served",
      () => /not served/.test(swarmRoot()?.description ?? "") && swarmRoot(),
      120_000,
    );
    assert.equal(swarm()?.status, "running", "the swarm itself still runs: Stop Watching stops it");
    assert.match(node.description ?? "", /^watch-one-step · not served · /);
    assert.equal(node.icon, "warning");
    const router = swarm()!.agents.find((a) => a.id === "agent-1");
    assert.deepEqual([router?.role, router?.state, router?.reason], ["router", "done", "step budget of 1 steps spent"]);

    const notice = await waitFor(
      "the not-served notice",
      () => hooks.swarms.notices.recent().find((n) => /is not served/.test(n.text)),
      30_000,
    );
    assert.equal(notice.level, "warning");
    assert.equal(
      notice.text,
      `Swarmboard: the watching swarm ${swarmId} is not served: its router agent-1 ended (step budget of 1 steps ` +
        "spent); 1 trigger waits in its log, and new ones will too. Raise budgets.steps in the recipe " +
        "(watch-one-step: a copy in .swarmboard/recipes/), then Stop Watching and Resume the swarm: a fresh router " +
        "reads the waiting triggers.",
    );
    assert.deepEqual(notice.actions, ["Stop Watching", "Show Router's Lane"]);
    assert.equal(hooks.swarms.notices.recent().filter((n) => /is not served/.test(n.text)).length, 1, "told once");

    // The tree's trigger queue under the swarm: the saved error, waiting for the router.
    const [queue, ...agents] = hooks.swarms.children(node);
    assert.equal(queue?.kind, "triggers");
    assert.match(queue?.description ?? "", /^1 arrived · 1 waiting for the router$/);
    assert.deepEqual(
      agents.map((a) => a.agentId),
      ["agent-1"],
    );
    const rows = hooks.swarms.children(queue!);
    assert.deepEqual(
      rows.map((r) => [r.label, r.description]),
      [["src/total.ts:4", "waiting · router"]],
    );
    assert.match(hooks.swarms.statusBar.text, /not served/);

    // The panel: status, the notice in the trigger card, the queue line and the row.
    await vscode.commands.executeCommand("swarmboard.openPanel");
    const panel = await waitFor("the panel to be ready", () => hooks.panel()?.isReady && hooks.panel(), 30_000);
    let shown = (await panel.probe("not-served-0")).dom;
    for (let n = 1; !(shown?.triggerSummary?.notServed && shown.triggers?.length === 1); n++) {
      assert.ok(n < 100, `the panel never showed the notice and the trigger: ${JSON.stringify(shown)}`);
      await new Promise((r) => setTimeout(r, 200));
      shown = (await panel.probe(`not-served-${n}`)).dom;
    }
    assert.equal(shown.triggerSummary.queue, "1 arrived · 1 waiting for the router");
    assert.equal(shown.triggerSummary.notServed, notice.text);
    assert.match(shown.triggers[0]?.text ?? "", /diagnosticwaiting.*src\/total\.ts:4 → router/);
    assert.equal(hooks.swarms.panelState().swarm?.status, "not served");
    if (vscode.env.uiKind === vscode.UIKind.Web) await requestScreenshot("watching-not-served");

    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    assert.deepEqual(await vscode.commands.executeCommand<string[]>("swarmboard.stopWatching"), [swarmId]);
    await waitFor("the swarm to end", () => swarm()?.status === "stopped", 60_000);
  });
});
