// How the in-host suite talks to the runner (runHostTests.ts, outside the workbench). The suite's console
// lines reach the runner through the workbench's `codeAutomationLog`, mixed with the workbench's own log; a
// marker tells them apart. A screenshot request is a marked line too: the runner saves the picture under
// .test-artifacts/host/ and the suite waits for the file to appear. No `vscode` import: the runner loads this.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** Prefix of each line of the suite's mocha output (added by index.ts, stripped by the runner). */
export const suiteOutputPrefix = "[swarmboard-suite] ";
export const screenshotRequestPrefix = "[swarmboard-screenshot] ";
export const panelInputRequestPrefix = "[swarmboard-panel-input] ";

/** What the runner does in the panel's page as a user would: pick a recipient, type into a box, click a button. */
export interface PanelInputRequest {
  /** Names the result file (a-z, 0-9, -). */
  readonly name: string;
  /** A <select> by its aria-label, and the value to pick. */
  readonly select?: { readonly label: string; readonly value: string };
  /** A <textarea> by its aria-label, and the text to type. */
  readonly fill: { readonly label: string; readonly text: string };
  /** The button to click, by its text. */
  readonly click: string;
}

export const hostArtifactsDir = path.resolve(__dirname, "../../../../.test-artifacts/host");

/** A line of the suite's own in the runner's output (a figure a test states), beside mocha's report. */
export function reportLine(text: string): void {
  console.log(`${suiteOutputPrefix}${text}`);
}

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

/**
 * Asks the runner to type into the Swarmboard panel's page (inside its webview frame) and click, as a user would;
 * resolves once it did, or throws with what it could not find.
 */
export async function typeInPanel(request: PanelInputRequest, timeoutMs = 30_000): Promise<void> {
  const file = path.join(hostArtifactsDir, `${request.name}.input.json`);
  console.log(`${panelInputRequestPrefix}${JSON.stringify(request)}`);
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline)
      throw new Error(`the runner did not act on the panel input ${request.name} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const outcome = JSON.parse(readFileSync(file, "utf8")) as { ok: boolean; error?: string };
  if (!outcome.ok) throw new Error(`the runner could not type into the panel: ${outcome.error}`);
}

export const panelDriveRequestPrefix = "[swarmboard-panel-drive] ";

/** What the runner does to the Swarmboard panel's page with the real keyboard and window (no synthetic events). */
export type PanelDriveRequest =
  /**
   * Clicks the page's title (focus into the page, as a click would), then presses Tab up to `tabs` times, noting
   * where the focus lands each time, until it leaves the page or lands on the finding whose data-id is `stopAt`.
   */
  | { readonly name: string; readonly kind: "tab"; readonly tabs: number; readonly stopAt?: string }
  /** Presses one key where the focus is now. */
  | { readonly name: string; readonly kind: "press"; readonly key: "Enter" }
  /** Measures the panel's page at the window's size now. */
  | { readonly name: string; readonly kind: "measure" }
  /** Narrows the browser window until the panel's page is `width` px wide and measures it (then screenshots). */
  | { readonly name: string; readonly kind: "narrow"; readonly width: number }
  /** Puts the browser window back to its size at the start. */
  | { readonly name: string; readonly kind: "restoreSize" };

/** One Tab stop, as the page saw it. */
export interface TabStop {
  /** False once the focus left the panel's page. */
  readonly inPage: boolean;
  readonly tag?: string;
  /** A finding's data-id, or the element's id. */
  readonly id?: string;
  readonly text?: string;
  /** Laid out, with a size, and inside the page's viewport. */
  readonly visible?: boolean;
  /** A focus ring drawn in the theme's focus colour (--vscode-focusBorder), not the browser's own. */
  readonly outlined?: boolean;
}

export interface PanelDriveResult {
  readonly ok: boolean;
  readonly error?: string;
  readonly stops?: readonly TabStop[];
  readonly layout?: {
    innerWidth: number;
    scrollWidth: number;
    clientWidth: number;
    /** Elements that reach past the page's right edge. */
    overflowing: string[];
    /** Lane title parts whose text does not fit their box (cut, as "researc…" was). */
    cut: string[];
  };
}

/** Asks the runner to drive the panel's page; resolves with what it saw. */
export async function drivePanel(request: PanelDriveRequest, timeoutMs = 60_000): Promise<PanelDriveResult> {
  const file = path.join(hostArtifactsDir, `${request.name}.drive.json`);
  console.log(`${panelDriveRequestPrefix}${JSON.stringify(request)}`);
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline)
      throw new Error(`the runner did not drive the panel (${request.name}) in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const result = JSON.parse(readFileSync(file, "utf8")) as PanelDriveResult;
  if (!result.ok) throw new Error(`the runner could not drive the panel (${request.name}): ${result.error}`);
  return result;
}
