// Issue 29, "Keyboard and narrow": the panel used with the real keyboard and at a narrow width, in the real
// workbench. The swarm shown is one of this window's, folded by the store's own reducer from events given here
// (three researchers, five findings), so the test needs no model; the panel, its page, the keys and the file opened
// are all real. Tab from the page's title reaches every finding, each stop visible and outlined; Enter on a finding
// opens its file at its line; at full width, 400 and 320 px the page has no horizontal scroll and no lane title
// is cut.
import assert from "node:assert/strict";
import path from "node:path";
import * as vscode from "vscode";
import type { SwarmEvent } from "../../../src/protocol/swarmEvents";
import { drivePanel, requestScreenshot } from "./automationMarkers";
import { noSwarmRunning, swarmboard, waitFor } from "./hostApi";

const swarmId = `kbd-${Date.now().toString(36)}`;
const findings = [
  {
    id: "f1",
    kind: "FACT",
    author: "agent-1",
    text: "mean throws on an empty list",
    ref: { path: "src/stats.js", line: 4 },
  },
  {
    id: "f2",
    kind: "OBSERVED",
    author: "agent-2",
    text: "variance has no test yet",
    ref: { path: "src/stats.js", line: 15 },
  },
  { id: "f3", kind: "FAIL", author: "agent-3", text: "the median test fails on even lengths" },
  {
    id: "f4",
    kind: "FACT",
    author: "agent-1",
    text: "README documents mean and median",
    ref: { path: "README.md", line: 1 },
  },
  {
    id: "f5",
    kind: "PATCH_SUMMARY",
    author: "agent-2",
    text: "median sorts numerically now",
    ref: { path: "src/stats.js", line: 9 },
  },
] as const;

function events(): SwarmEvent[] {
  const t = Date.now();
  const out: SwarmEvent[] = [];
  for (const n of [1, 2, 3])
    out.push({ type: "agent-added", swarmId, time: t + n, agent: { id: `agent-${n}`, role: "researcher" } });
  // Enough calls that agent-1's timeline scrolls (a scroller is a Tab stop of its own in Chromium).
  for (let i = 0; i < 30; i++)
    out.push({
      type: "tool-call",
      swarmId,
      time: t + 4,
      agentId: "agent-1",
      callId: `c${i}`,
      tool: "read_file",
      args: { path: `src/part${i}.js` },
    });
  findings.forEach((f, i) =>
    out.push({
      type: "board-entry",
      swarmId,
      time: t + 10 + i,
      entry: {
        id: f.id,
        kind: f.kind,
        author: f.author,
        time: t + 10 + i,
        scope: { paths: [], globs: [] },
        text: f.text,
        refs: "ref" in f ? [f.ref] : [],
      },
    }),
  );
  for (const n of [1, 2, 3])
    out.push({ type: "agent-state", swarmId, time: t + 20 + n, agentId: `agent-${n}`, state: "done" });
  out.push({ type: "swarm-ended", swarmId, time: t + 30, outcome: "completed", reason: "all tasks done" });
  return out;
}

describe("the panel by keyboard and at a narrow width", function () {
  this.timeout(300_000);

  before(async function () {
    if (vscode.env.uiKind !== vscode.UIKind.Web) this.skip(); // the keys and the window come from the web runner
    const { hooks } = await swarmboard();
    await noSwarmRunning(hooks);
    hooks.swarms.store.apply(swarmId, events());
    await vscode.commands.executeCommand("swarmboard.openPanel");
    const panel = await waitFor("the panel, ready", () => hooks.panel()?.isReady && hooks.panel());
    await waitFor("the panel showing the five findings", () => hooks.swarms.panelState().swarm?.id === swarmId);
    // Until the page shows this swarm's findings: it may still show the swarm an earlier suite left in the panel.
    const expected = findings.map((f) => f.text);
    let shown: string[] = [];
    for (let i = 0; i < 40 && JSON.stringify(shown) !== JSON.stringify(expected); i++) {
      shown = (await panel.probe(`kbd-${i}`)).dom?.findingTexts ?? [];
      if (JSON.stringify(shown) !== JSON.stringify(expected)) await new Promise((r) => setTimeout(r, 250));
    }
    assert.deepEqual(shown, expected, "the page shows every finding of this swarm");
    await vscode.commands.executeCommand("notifications.clearAll");
  });

  it("reaches every finding with Tab, each stop visible and outlined, and Enter opens the finding's file", async () => {
    const { stops } = await drivePanel({ name: "panel-tab-all", kind: "tab", tabs: 80 });
    const inPage = (stops ?? []).filter((s) => s.inPage);
    assert.ok(inPage.length < (stops ?? []).length, "the focus left the page at its end (80 presses were enough)");
    const hidden = inPage.filter((s) => !s.visible || !s.outlined);
    assert.deepEqual(hidden, [], "no Tab stop is invisible or without a focus ring");
    const reached = inPage.filter((s) => s.tag === "li").map((s) => s.id);
    assert.deepEqual(
      reached,
      findings.map((f) => f.id),
      "each finding once, in order",
    );

    await drivePanel({ name: "panel-tab-to-f2", kind: "tab", tabs: 80, stopAt: "f2" });
    await requestScreenshot("panel-keyboard-finding-focused");
    await drivePanel({ name: "panel-enter-f2", kind: "press", key: "Enter" });
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? "";
    const editor = await waitFor("src/stats.js open", () =>
      vscode.window.activeTextEditor?.document.uri.fsPath === path.join(workspace, "src", "stats.js")
        ? vscode.window.activeTextEditor
        : undefined,
    );
    assert.equal(editor.selection.active.line, 14, "at the finding's line 15");
  });

  it("has no horizontal scroll and no cut lane title at full width, 400 and 320 px", async () => {
    const { hooks } = await swarmboard();
    await vscode.commands.executeCommand("workbench.action.closeSidebar");
    await vscode.commands.executeCommand("workbench.action.closeAuxiliaryBar");
    await vscode.commands.executeCommand("workbench.action.closePanel");
    hooks.panel()?.reveal();
    await waitFor("the panel, ready again", () => hooks.panel()?.isReady);
    const wide = (await drivePanel({ name: "panel-wide", kind: "measure" })).layout;
    assert.ok(wide && wide.scrollWidth <= wide.clientWidth, `full width: ${JSON.stringify(wide)}`);
    assert.deepEqual(wide.cut, [], "full width: lane title parts cut");
    try {
      for (const width of [400, 320]) {
        const { layout } = await drivePanel({ name: `panel-narrow-${width}`, kind: "narrow", width });
        assert.ok(layout, "measured");
        assert.ok(
          layout.scrollWidth <= layout.clientWidth,
          `${width} px: scrollWidth ${layout.scrollWidth} > clientWidth ${layout.clientWidth}; past the edge: ${layout.overflowing.join(", ")}`,
        );
        assert.deepEqual(layout.cut, [], `${width} px: lane title parts cut`);
        await requestScreenshot(`panel-narrow-${width}`);
      }
    } finally {
      await drivePanel({ name: "panel-size-back", kind: "restoreSize" });
      await vscode.commands.executeCommand("workbench.action.toggleSidebarVisibility");
    }
  });
});
