// Issue 26, "a real workbench.action.reloadWindow during a swarm leaves it running", with `swarmboard.sharedWorker`
// on. Before: the window attaches to the shared worker and launches a scripted swarm (one worker posting many
// findings, each after a paragraph of thinking: slow enough to outlive the reload), the panel shows it; after its
// third finding the agent asks to run a command, and the test reloads with that approval open (its toast hidden, not
// closed: a closed prompt is a deny), noting the swarm, the request and the server's pid. After (this file loaded again by the reloaded workbench): the
// window attaches again to the same server, which loaded the model once, and asks again for the approval the agent
// still waits for (answered here, the agent goes on); the tree shows the swarm running, the panel its lane and findings; the swarm ends completed with every finding on its board, and the lane's token count
// is its trace's (the reloaded window read the trace up to where it stood as it followed, then folded the stream:
// an event missed or folded twice between the two would show here).
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as vscode from "vscode";
import type { TurnScript } from "../../../src/protocol/turnScript";
import { hostArtifactsDir, requestScreenshot } from "./automationMarkers";
import { swarmboard, waitFor } from "./hostApi";
import { modelPath, shortRecipe } from "./reviewSwarmRun";
import { attachCount, attachShared, leaveShared, serverStatus } from "./sharedServer";

const note = path.join(hostArtifactsDir, "shared-reload.note.json");
const goal = "Keep running in the shared worker across a reload";
const postCount = 30;
/** Asked after this many findings: the reload comes while it waits. */
const askAfter = 3;
const askedCommand = "node --version";
const thinking =
  "Reading the module again from the top: the functions, their arguments, what each returns on an empty list, " +
  "and whether the comments still say what the code does. Then the next observation.";

const script: TurnScript = {
  agents: {
    "agent-1": [
      ...Array.from({ length: postCount }, (_, i) => ({
        tool: "post_finding",
        think: thinking,
        args: { kind: "OBSERVED", text: `reload observation ${i + 1} of the stats module` },
      })).flatMap((post, i) =>
        i === askAfter ? [{ tool: "run_command", args: { command: askedCommand } }, post] : [post],
      ),
      { tool: "finish", args: { summary: "looked" } },
    ],
    synthesist: [{ tool: "finish", args: { summary: "-" } }],
  },
};

const recipe = {
  ...shortRecipe,
  roles: shortRecipe.roles.map((r) => (r.name === "worker" ? { ...r, tools: [...r.tools, "run_command"] } : r)),
  budgets: { ...shortRecipe.budgets, steps: postCount + 20, tokensPerAgent: 400_000 },
};

interface Note {
  readonly swarmId: string;
  readonly serverPid: number;
  readonly findingsBefore: number;
  readonly stateDir: string;
  /** The approval the agent waits for as the window reloads. */
  readonly requestId: string;
}

/** agent-1's tokens as its trace has them, once the trace holds the swarm's end (it is written as it is sent). */
function traceTokens(stateDir: string): number | undefined {
  const lines = readFileSync(path.join(stateDir, "events.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l !== "");
  const events = lines.map((l) => JSON.parse(l) as { type: string; agentId?: string; tokens?: number });
  if (!events.some((e) => e.type === "swarm-ended")) return undefined;
  return events.reduce((n, e) => n + (e.type === "agent-text" && e.agentId === "agent-1" ? (e.tokens ?? 0) : 0), 0);
}

async function beforeTheReload(): Promise<void> {
  const { hooks } = await swarmboard();
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(workspace, "the workbench has a folder open");
  await waitFor("the worker to be ready", () => hooks.worker.state.state === "ready", 120_000);
  const serverPid = await attachShared(hooks);
  const root = path.join(os.tmpdir(), `swarmboard-shared-reload-${Date.now()}`);
  mkdirSync(root, { recursive: true });
  const recipeFile = path.join(root, "shared-reload-recipe.json");
  writeFileSync(recipeFile, JSON.stringify(recipe));
  const stateDir = path.join(root, "state");
  const swarmId = await hooks.reviewSurfaces.swarms.start({
    goal,
    recipe: recipeFile,
    modelPath: modelPath(),
    // The workspace's own repository: a reloaded window lists the swarms of its folders' histories.
    workspace,
    stateDir,
    threads: 1,
    policy: { allow: [], ask: [askedCommand], deny: [] },
    script,
  });
  await vscode.commands.executeCommand("swarmboard.openPanel");
  const findings = () => hooks.swarms.store.swarm(swarmId)?.entries.length ?? 0;
  await waitFor("the swarm's first findings", () => findings() >= 3, 180_000);
  await waitFor(
    "the panel showing the swarm",
    () => hooks.panel()?.isReady && hooks.swarms.panelState().swarm?.id === swarmId,
  );
  const asked = await waitFor(
    "the agent asking for approval",
    () => hooks.swarms.store.swarm(swarmId)?.approvals[0],
    180_000,
  );
  await waitFor("the approval prompt", () => hooks.reviewSurfaces.approvals.pending().length === 1 || undefined);
  // Hide the toast, do not close it: a closed prompt is the user's deny (src/host/approvals/approvalPrompts.ts).
  await vscode.commands.executeCommand("notifications.hideToasts");
  const findingsBefore = findings();
  assert.equal(hooks.swarms.store.swarm(swarmId)?.status, "running", "still running when the window reloads");
  assert.equal(hooks.reviewSurfaces.approvals.pending().length, 1, "the approval still waits as the window reloads");
  console.log(`reloading with swarm ${swarmId} at ${findingsBefore} of ${postCount} findings, server pid ${serverPid}`);
  const requestId = asked.requestId;
  writeFileSync(note, JSON.stringify({ swarmId, serverPid, findingsBefore, stateDir, requestId } satisfies Note));
  await vscode.commands.executeCommand("workbench.action.reloadWindow");
  // This host ends with the reload; the test's second half runs in the next one.
  await new Promise(() => undefined);
}

async function afterTheReload(before: Note): Promise<void> {
  const { hooks } = await swarmboard();
  try {
    await waitFor("the window to attach to the shared worker again", () => attachCount(hooks) >= 1, 180_000);
    const status = await serverStatus();
    assert.equal(status.pid, before.serverPid, "the same server runs the swarm after the reload");
    assert.equal(status.modelLoads, 1, "the model was loaded once");
    const view = () => hooks.swarms.store.swarm(before.swarmId);
    await waitFor(`swarm ${before.swarmId} read back`, () => view(), 120_000);
    assert.equal(view()?.status, "running", `shown ${view()?.status} (${view()?.endReason ?? ""}): still running`);
    assert.ok(status.swarms.includes(before.swarmId), "the server still runs it");
    // The agent still waits: the reloaded window asks again, and the answer lets the agent go on.
    await waitFor(
      `the reloaded window asking again for ${before.requestId}`,
      () => hooks.reviewSurfaces.approvals.pending().some((p) => p.requestId === before.requestId) || undefined,
      60_000,
    );
    assert.ok(hooks.reviewSurfaces.approvals.answer(before.requestId, "once"), "the prompt is answered");
    const node = hooks.swarmsView.roots().find((n) => n.kind === "swarm" && n.swarmId === before.swarmId);
    assert.match(node?.description ?? "", /running/, `the tree says it runs: ${node?.description}`);
    const panel = await waitFor("the panel tab restored", () => hooks.panel(), 120_000);
    await waitFor(
      "the restored panel showing the swarm",
      () => panel.isReady && hooks.swarms.panelState().swarm?.id === before.swarmId,
      120_000,
    );
    const count = () => view()?.entries.length ?? 0;
    const seen = count();
    await waitFor("a finding made after the reload (the swarm is live here)", () => count() > seen, 120_000);
    const shown = await panel.probe("after-shared-reload");
    assert.ok(shown.dom?.laneIds.includes("agent-1"), `the page shows agent-1's lane: ${shown.dom?.laneIds}`);
    assert.match(shown.dom?.findingTexts.join("\n") ?? "", /reload observation 1 of/, "and its findings");
    await vscode.commands.executeCommand("notifications.clearAll");
    await requestScreenshot("shared-reload-after");
    await waitFor("the swarm to end", () => view()?.status !== "running" || undefined, 480_000);
    assert.equal(view()?.status, "completed", `ended ${view()?.status}: ${view()?.endReason ?? ""}`);
    const texts = new Set(view()?.entries.map((e) => e.text));
    const missing = Array.from(
      { length: postCount },
      (_, i) => `reload observation ${i + 1} of the stats module`,
    ).filter((t) => !texts.has(t));
    assert.deepEqual(missing, [], "every finding is on the board the window shows, before and after the reload");
    const traced = await waitFor("the swarm's end in its trace", () => traceTokens(before.stateDir), 30_000);
    const tokensShown = view()?.agents.find((a) => a.id === "agent-1")?.tokens;
    assert.equal(
      tokensShown,
      traced,
      "agent-1's tokens are its trace's: no event missed or folded twice across the attach",
    );
  } finally {
    await leaveShared();
  }
}

describe("the window reloaded while a swarm runs in the shared worker", function () {
  this.timeout(600_000);

  if (existsSync(note)) {
    const before = JSON.parse(readFileSync(note, "utf8")) as Note;
    it("attaches again to the same server and shows the swarm live until it completes", () => afterTheReload(before));
  } else {
    it("attaches to the shared worker, launches a swarm and reloads the window", () => beforeTheReload());
  }
});
