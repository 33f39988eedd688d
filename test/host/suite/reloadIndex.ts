// The window-reload suite's entry point, in a session of its own (after the main suite's, in a code-server of its own):
// its test reloads the window, which ends this extension host and the mocha run in it; the reloaded workbench loads
// this entry again (the page's payload names it) and the test, finding its note from before, checks what came back.
// Kept apart from index.ts so a reload never cuts the main suite's run short.
import path from "node:path";
import { runMocha } from "./index";

export function run(): Promise<void> {
  return runMocha([path.join(__dirname, "windowReload.suite.js")]);
}
