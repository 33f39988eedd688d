// The shared-worker reload suite's entry point, in a session of its own like reloadIndex.ts: its test reloads the
// window, and the reloaded workbench loads this entry again to check what came back.
import path from "node:path";
import { runMocha } from "./index";

export function run(): Promise<void> {
  return runMocha([path.join(__dirname, "sharedReload.suite.js")]);
}
