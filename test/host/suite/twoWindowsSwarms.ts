// What the two-window suite's scenarios share: which window this is, its folder, the recipes they launch and how
// a launched swarm is seen to end.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as vscode from "vscode";
import type { TurnScript } from "../../../src/protocol/turnScript";
import { waitFor, type swarmboard } from "./hostApi";
import { myPart, otherPart } from "./windowMeeting";

export const part = myPart();
export const other = otherPart(part);
export const waitingCommand = "node --version";

/** One worker that waits for an approval that never comes: a swarm that runs until its server dies. */
export const waitingRecipe = {
  name: "waiting",
  description: "One worker that waits for an approval.",
  roles: [{ name: "worker", count: 1, tools: ["post_finding", "run_command"], instructions: "Ask." }],
  topology: { kind: "fanout" },
  visibility: "shared",
  budgets: { wallClockMs: 10 * 60_000, tokensPerAgent: 100_000, kvCells: 32_768, steps: 40 },
  taskSources: ["goal"],
  merge: false,
};
export const waitingScript: TurnScript = {
  agents: {
    "agent-1": [
      { tool: "post_finding", args: { kind: "OBSERVED", text: "about to ask" } },
      { tool: "run_command", args: { command: waitingCommand } },
      { tool: "finish", args: { summary: "never reached" } },
    ],
  },
};

export function folder(): string {
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(workspace, "the window has a folder open");
  return workspace;
}

export function recipeFile(name: string, recipe: object): { file: string; stateDir: string } {
  const root = path.join(os.tmpdir(), `swarmboard-two-windows-${part}-${name}-${Date.now()}`);
  mkdirSync(root, { recursive: true });
  const file = path.join(root, `${name}.json`);
  writeFileSync(file, JSON.stringify(recipe));
  return { file, stateDir: path.join(root, "state") };
}

export type Hooks = Awaited<ReturnType<typeof swarmboard>>["hooks"];

export async function endsCompleted(hooks: Hooks, swarmId: string): Promise<void> {
  const view = () => hooks.swarms.store.swarm(swarmId);
  const ended = () => view() !== undefined && view()?.status !== "running" && view()?.status !== "starting";
  await waitFor(`swarm ${swarmId} to end`, () => ended() || undefined, 300_000);
  assert.equal(view()?.status, "completed", `${view()?.status}: ${view()?.endReason ?? ""}`);
}
