// Findings shown at the lines they point at, in every visible editor: a whole-line decoration with the
// kind and author after the line and the full text in a hover. Decorations rather than comment threads:
// findings are read-only notes from agents, so the comments API's reply box, thread state and Comments
// panel would promise a conversation that does not exist; decorations are cheap to redraw on every store
// change and vanish entirely when the setting is off. Positions follow the user's edits while the file is
// open (tracked here from the document's change events; the store keeps the board's original lines).
import * as vscode from "vscode";
import { DisposableBase } from "../../core/disposable";
import { readSettings } from "../configuration";
import type { SwarmStore } from "../swarm/swarmStore";
import { findingMarks, markLabel, shiftLines, type FindingMark, type LineEdit } from "./findingMarks";

export interface ShownFinding {
  readonly line: number;
  readonly endLine: number;
  readonly label: string;
  readonly entryId: string;
}

export function showFindingsEnabled(): boolean {
  const result = readSettings();
  return result.ok ? result.settings.showFindingsInEditor : true;
}

/** The folder a swarm's `file:line` refs are relative to: its launch workspace, else the first folder. */
export function swarmFolder(store: SwarmStore, swarmId: string): string | undefined {
  return store.place(swarmId)?.workspace ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

export function markUri(store: SwarmStore, mark: FindingMark): vscode.Uri | undefined {
  const folder = swarmFolder(store, mark.swarmId);
  return folder === undefined ? undefined : vscode.Uri.joinPath(vscode.Uri.file(folder), mark.path);
}

export class FindingsInEditor extends DisposableBase {
  private readonly decoration = this.register(
    vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor("editor.wordHighlightBackground"),
      overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.infoForeground"),
      overviewRulerLane: vscode.OverviewRulerLane.Right,
      after: { margin: "0 0 0 2em", color: new vscode.ThemeColor("editorCodeLens.foreground"), fontStyle: "italic" },
    }),
  );
  /** Lines moved by edits, by document then mark key: derived positions, never findings of our own. */
  private readonly moved = new Map<string, Map<string, { line: number; endLine: number }>>();
  /** What each visible document shows now (for the test hooks). */
  private readonly shown = new Map<string, ShownFinding[]>();

  constructor(private readonly swarms: SwarmStore) {
    super();
    this.register(
      swarms.onDidChange((change) => {
        if (change.types.size === 0 || change.types.has("board-entry")) this.refresh();
      }),
    );
    this.register(vscode.window.onDidChangeVisibleTextEditors(() => this.refresh()));
    this.register(vscode.workspace.onDidChangeTextDocument((e) => this.onEdit(e)));
    this.register(vscode.workspace.onDidCloseTextDocument((d) => this.moved.delete(d.uri.toString())));
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration("swarmboard.showFindingsInEditor")) this.refresh();
      }),
    );
    this.refresh();
  }

  /** The findings a document shows now (0-based lines), as last drawn. */
  shownIn(uri: vscode.Uri): readonly ShownFinding[] {
    return this.shown.get(uri.toString()) ?? [];
  }

  private marksOf(document: vscode.TextDocument): FindingMark[] {
    const key = document.uri.toString();
    const moved = this.moved.get(key);
    const marks: FindingMark[] = [];
    for (const swarm of this.swarms.swarms()) {
      for (const mark of findingMarks(swarm.id, swarm.entries)) {
        if (markUri(this.swarms, mark)?.toString() !== key) continue;
        const at = moved?.get(mark.key);
        marks.push(at ? { ...mark, ...at } : mark);
      }
    }
    return marks;
  }

  private onEdit(e: vscode.TextDocumentChangeEvent): void {
    if (e.contentChanges.length === 0) return;
    const edits: LineEdit[] = e.contentChanges.map((c) => ({
      startLine: c.range.start.line,
      startCharacter: c.range.start.character,
      endLine: c.range.end.line,
      endCharacter: c.range.end.character,
      insertedLineBreaks: c.text.split("\n").length - 1,
    }));
    const marks = this.marksOf(e.document);
    if (marks.length === 0) return;
    const moved = new Map(marks.map((m) => [m.key, shiftLines({ line: m.line, endLine: m.endLine }, edits)]));
    this.moved.set(e.document.uri.toString(), moved);
    this.refresh();
  }

  refresh(): void {
    const enabled = showFindingsEnabled();
    this.shown.clear();
    for (const editor of vscode.window.visibleTextEditors) {
      const marks = enabled ? this.marksOf(editor.document) : [];
      const lastLine = Math.max(0, editor.document.lineCount - 1);
      const byLine = new Map<number, FindingMark[]>();
      for (const m of marks)
        byLine.set(Math.min(m.line, lastLine), [...(byLine.get(Math.min(m.line, lastLine)) ?? []), m]);
      const options: vscode.DecorationOptions[] = [];
      const shown: ShownFinding[] = [];
      for (const [line, atLine] of byLine) {
        const label = atLine.map((m) => markLabel(m, atLine.length > 1 ? 40 : 90)).join("  |  ");
        options.push({
          range: new vscode.Range(line, 0, line, 0),
          hoverMessage: atLine.map(hover),
          renderOptions: { after: { contentText: `  ${label}` } },
        });
        for (const m of atLine)
          shown.push({ line, endLine: Math.min(m.endLine, lastLine), label: markLabel(m), entryId: m.entryId });
      }
      editor.setDecorations(this.decoration, options);
      if (shown.length > 0) this.shown.set(editor.document.uri.toString(), shown);
    }
  }
}

function hover(mark: FindingMark): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${mark.kind}** by \`${mark.author}\` · swarm \`${mark.swarmId}\`\n\n`);
  md.appendText(mark.text);
  return md;
}
