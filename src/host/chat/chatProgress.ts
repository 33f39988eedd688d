// Streams a running swarm into a chat response: agents as they start, their claims, findings as markdown
// with anchors to file:line, merges, and at the end the report with buttons for review and the panel.
// It reads the store (the same view the tree and the panel project) and ends when the swarm does.
import * as path from "node:path";
import * as vscode from "vscode";
import { statusText } from "../../core/delegationText";
import type { SwarmViewState } from "../../core/swarmView";
import type { BoardEntry } from "../../protocol/board";
import type { SwarmStore } from "../swarm/swarmStore";

function ended(view: SwarmViewState | undefined): boolean {
  return view !== undefined && view.status !== "running" && view.status !== "starting";
}

function streamEntry(stream: vscode.ChatResponseStream, entry: BoardEntry, root: string | undefined): void {
  if (entry.kind === "MESSAGE" || entry.kind === "RELEASE") return;
  const verb = entry.kind === "CLAIM" ? "claims" : entry.kind === "PATCH_SUMMARY" ? "merged" : entry.kind;
  stream.markdown(`- **${entry.author}** ${verb}: `);
  stream.markdown(new vscode.MarkdownString().appendText(entry.text));
  for (const ref of entry.refs) {
    stream.markdown(" ");
    const label = ref.line === undefined ? ref.path : `${ref.path}:${ref.line}`;
    if (root === undefined) stream.markdown(`\`${label}\``);
    else {
      const uri = vscode.Uri.file(path.join(root, ref.path));
      const line = Math.max(0, (ref.line ?? 1) - 1);
      stream.anchor(new vscode.Location(uri, new vscode.Position(line, 0)), label);
    }
  }
  stream.markdown("\n");
}

/** Streams until the swarm ends or the request is cancelled (the swarm keeps running then). */
export async function streamSwarm(
  store: SwarmStore,
  swarmId: string,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<void> {
  const root = store.place(swarmId)?.workspace;
  const agentsSeen = new Set<string>();
  let entriesSeen = 0;
  const flush = () => {
    const view = store.swarm(swarmId);
    if (!view) return;
    for (const agent of view.agents) {
      if (agentsSeen.has(agent.id)) continue;
      agentsSeen.add(agent.id);
      stream.progress(`${agent.id} (${agent.role}) started${agent.branch ? ` on ${agent.branch}` : ""}`);
      stream.markdown(`- **${agent.id}** (${agent.role}) started${agent.branch ? ` on \`${agent.branch}\`` : ""}\n`);
    }
    for (const entry of view.entries.slice(entriesSeen)) streamEntry(stream, entry, root);
    entriesSeen = view.entries.length;
  };
  await new Promise<void>((resolve) => {
    const done = () => {
      change.dispose();
      cancel.dispose();
      resolve();
    };
    const change = store.onDidChange((c) => {
      if (c.swarmId !== swarmId) return;
      flush();
      if (ended(store.swarm(swarmId))) done();
    });
    const cancel = token.onCancellationRequested(done);
    flush();
    if (ended(store.swarm(swarmId))) done();
  });
  const view = store.swarm(swarmId);
  if (!view) return;
  if (!ended(view)) {
    stream.markdown(`\nStill running: follow it in the panel, or ask \`@swarmboard /status\`.\n`);
  } else {
    stream.markdown(`\n**Report**\n\n`);
    stream.markdown(new vscode.MarkdownString().appendCodeblock(statusText(view, view.interrupted), "text"));
    if (view.reportPath) stream.reference(vscode.Uri.file(view.reportPath));
  }
  stream.button({ command: "swarmboard.reviewBranches", title: "Review Branches" });
  stream.button({ command: "swarmboard.openPanel", title: "Open Panel" });
}
