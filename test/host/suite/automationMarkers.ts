// How the in-host suite talks to the runner (runHostTests.ts, outside the workbench). The suite's console
// lines reach the runner through the workbench's `codeAutomationLog`, mixed with the workbench's own log; a
// marker tells them apart. A screenshot request is a marked line too: the runner saves the picture under
// .test-artifacts/host/ and the suite waits for the file to appear. No `vscode` import: the runner loads this.
import { existsSync } from "node:fs";
import path from "node:path";

/** Prefix of each line of the suite's mocha output (added by index.ts, stripped by the runner). */
export const suiteOutputPrefix = "[swarmboard-suite] ";
export const screenshotRequestPrefix = "[swarmboard-screenshot] ";

export const hostArtifactsDir = path.resolve(__dirname, "../../../../.test-artifacts/host");

/** Asks the runner for a screenshot of the whole workbench; resolves with the PNG's path once it is saved. */
export async function requestScreenshot(name: string, timeoutMs = 30_000): Promise<string> {
  const file = path.join(hostArtifactsDir, `${name}.png`);
  console.log(`${screenshotRequestPrefix}${name}`);
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline) {
      throw new Error(
        `the runner did not save the screenshot ${file} within ${timeoutMs} ms (is the suite run by runHostTests?)`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return file;
}
