// The two-window suite's entry point: the runner opens two windows on this entry at once, one on each folder.
import path from "node:path";
import { runMocha } from "./index";

export function run(): Promise<void> {
  return runMocha([path.join(__dirname, "twoWindows.suite.js")]);
}
