// A command that reports its own failure: the error is logged and shown, and the command resolves undefined,
// so a palette click never fails silently and a caller awaiting it never sees a rejected promise.
import * as vscode from "vscode";
import type { HostLog } from "./hostLog";

export function reportingFailures<A extends unknown[], R>(
  log: HostLog,
  name: string,
  run: (...args: A) => Promise<R>,
): (...args: A) => Promise<R | undefined> {
  return async (...args: A) => {
    try {
      return await run(...args);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.error(`${name}: ${message}`);
      void vscode.window.showErrorMessage(`Swarmboard: ${message}`);
      return undefined;
    }
  };
}
