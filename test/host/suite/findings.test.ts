// A finding with a file:line ref from the shared scripted run shows at its line in an open editor, moves
// with the user's edits, and goes away when the setting is off; the list command holds every finding.
import assert from "node:assert/strict";
import path from "node:path";
import * as vscode from "vscode";
import { shiftLine, shiftLines, type LineEdit } from "../../../src/host/findings/findingMarks";
import { requestScreenshot } from "./automationMarkers";
import { swarmboard, waitFor } from "./hostApi";
import { pickInOurPicker, sharedRun } from "./reviewSwarmRun";

describe("findings in the editor", function () {
  this.timeout(240_000);

  it("shows agent-1's FACT at line 4 of src/stats.js, labelled with kind and author", async () => {
    const { hooks } = await swarmboard();
    const run = await sharedRun(hooks);
    const uri = vscode.Uri.file(path.join(run.repo, "src", "stats.js"));
    const editor = await vscode.window.showTextDocument(uri, { preview: false });
    const shown = await waitFor(
      "the FACT finding at line 4",
      () => hooks.reviewSurfaces.findings.shownIn(uri).find((f) => f.label.startsWith("FACT")),
      180_000,
    );
    assert.equal(shown.line, 3, "0-based line 3 is the file's line 4");
    assert.equal(shown.label, "FACT · agent-1: mean throws on an empty list");
    await waitFor(
      "agent-2's OBSERVED finding too",
      () => hooks.reviewSurfaces.findings.shownIn(uri).find((f) => f.label.startsWith("OBSERVED · agent-2")),
      180_000,
    );
    if (vscode.env.uiKind === vscode.UIKind.Web) {
      // The picture: no leftover notifications, the hover of the FACT open (its full text, kind and author).
      await vscode.commands.executeCommand("notifications.clearAll");
      editor.selection = new vscode.Selection(3, 0, 3, 0);
      await vscode.commands.executeCommand("editor.action.showHover");
      await new Promise((r) => setTimeout(r, 1000)); // not an assertion: lets the hover render
      await requestScreenshot("finding-inline");
    }
  });

  it("moves the finding with edits above it while the file is open", async () => {
    const { hooks } = await swarmboard();
    const run = await sharedRun(hooks);
    const uri = vscode.Uri.file(path.join(run.repo, "src", "stats.js"));
    const editor = await vscode.window.showTextDocument(uri, { preview: false });
    assert.ok(await editor.edit((e) => e.insert(new vscode.Position(0, 0), "// one\n// two\n")));
    const moved = await waitFor("the FACT finding two lines down", () =>
      hooks.reviewSurfaces.findings.shownIn(uri).find((f) => f.label.startsWith("FACT") && f.line === 5),
    );
    assert.equal(moved.line, 5);
    assert.ok(await editor.edit((e) => e.delete(new vscode.Range(0, 0, 2, 0))));
    await waitFor("the FACT finding back at line 4", () =>
      hooks.reviewSurfaces.findings.shownIn(uri).find((f) => f.label.startsWith("FACT") && f.line === 3),
    );
    await vscode.commands.executeCommand("workbench.action.files.revert");
  });

  it("hides every finding when swarmboard.showFindingsInEditor is off, and shows them again when on", async () => {
    const { hooks } = await swarmboard();
    const run = await sharedRun(hooks);
    const uri = vscode.Uri.file(path.join(run.repo, "src", "stats.js"));
    await vscode.window.showTextDocument(uri, { preview: false });
    const config = vscode.workspace.getConfiguration("swarmboard");
    await config.update("showFindingsInEditor", false, vscode.ConfigurationTarget.Global);
    try {
      await waitFor("no findings shown", () => hooks.reviewSurfaces.findings.shownIn(uri).length === 0);
    } finally {
      await config.update("showFindingsInEditor", undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor("the findings back", () => hooks.reviewSurfaces.findings.shownIn(uri).length >= 2);
  });

  it("lists the swarm's findings and opens the picked one at its line", async () => {
    const { hooks } = await swarmboard();
    const run = await sharedRun(hooks);
    // A swarm still running (the editor-context launch just before) refreshes the open list, and a refresh moves the
    // active item back to the first: the pick waits until nothing runs.
    await waitFor(
      "no swarm running",
      () => !hooks.swarms.store.swarms().some((s) => s.status === "running" || s.status === "starting"),
      180_000,
    );
    const listed = vscode.commands.executeCommand<{ kind: string; author: string } | undefined>(
      "swarmboard.listFindings",
      { swarmId: run.swarmId },
    );
    const picked = await pickInOurPicker(hooks, (label) => label.includes("FACT · agent-1"), listed, "FACT · agent-1");
    const entry = picked;
    assert.ok(entry, "a finding was picked");
    assert.equal(`${entry.kind} ${entry.author}`, "FACT agent-1");
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.fsPath, path.join(run.repo, "src", "stats.js"));
    assert.equal(editor?.selection.active.line, 3);
  });
});

describe("finding lines under edits (pure)", () => {
  const edit = (
    startLine: number,
    startCharacter: number,
    endLine: number,
    endCharacter: number,
    insertedLineBreaks: number,
  ): LineEdit => ({ startLine, startCharacter, endLine, endCharacter, insertedLineBreaks });

  it("moves a line with insertions and deletions above it, keeps it for edits below or inside it, collapses it when its line is replaced", () => {
    const cases: Array<[string, LineEdit, number]> = [
      ["two lines inserted at the top", edit(0, 0, 0, 0, 2), 7],
      ["a line break typed at the start of the line", edit(5, 0, 5, 0, 1), 6],
      ["a line break typed inside the line", edit(5, 3, 5, 3, 1), 5],
      ["lines 3-5 deleted", edit(3, 0, 6, 0, 0), 3],
      ["a line below deleted", edit(6, 0, 7, 0, 0), 5],
      ["the line joined to the one above", edit(4, 2, 5, 0, 0), 4],
    ];
    for (const [what, e, expected] of cases) assert.equal(shiftLine(5, e), expected, what);
  });

  it("applies one change's edits bottom-up and keeps the range ordered", () => {
    const moved = shiftLines({ line: 5, endLine: 8 }, [edit(0, 0, 0, 0, 1), edit(7, 0, 7, 0, 3)]);
    assert.deepEqual(moved, { line: 6, endLine: 12 });
  });
});
