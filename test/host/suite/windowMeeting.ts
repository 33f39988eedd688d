// Two workbench windows (two extension hosts, one code-server) running the same suite side by side meet through
// small files in the artifacts folder: each says what it did ("attached", with its server's pid) and waits to hear
// the other's. The runner starts both at once, one on each folder; a window knows its part by its folder's name.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import { hostArtifactsDir } from "./automationMarkers";
import { waitFor } from "./hostApi";

export type Part = "a" | "b";

const meetingDir = path.join(hostArtifactsDir, "two-windows");

/** This window's part: "b" for the second folder (workspace-b), "a" for the first. */
export function myPart(): Part {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? "";
  return path.basename(folder) === "workspace-b" ? "b" : "a";
}

export function otherPart(part: Part): Part {
  return part === "a" ? "b" : "a";
}

/** Says that this window reached a step, with what the other needs to know. */
export function say(part: Part, step: string, data: object = {}): void {
  mkdirSync(meetingDir, { recursive: true });
  const file = path.join(meetingDir, `${part}-${step}.json`);
  writeFileSync(`${file}.partial`, JSON.stringify(data));
  // Renamed into place: the other window never reads half a file.
  renameSync(`${file}.partial`, file);
}

/** Waits until the other window said it reached a step; resolves with what it said. Fails if the other failed. */
export async function hear<T extends object>(part: Part, step: string, limitMs = 300_000): Promise<T> {
  const file = path.join(meetingDir, `${part}-${step}.json`);
  const failed = path.join(meetingDir, `${part}-failed.json`);
  await waitFor(`window ${part} to reach "${step}"`, () => existsSync(file) || existsSync(failed), limitMs);
  if (!existsSync(file)) throw new Error(`window ${part} failed a test before it reached "${step}"`);
  return JSON.parse(readFileSync(file, "utf8")) as T;
}
