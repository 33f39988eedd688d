// Runs the in-host suite (test/host/suite) inside a real VS Code extension host: code-server 4.100.3 serves the
// workbench, Debian's Chromium (driven by playwright-core) opens it with a `payload` naming this repository as
// the extension under development and the compiled suite as its tests. The suite's mocha output is streamed
// here; the process exits with mocha's result. Screenshots the suite asks for land in .test-artifacts/host/.
// First: git in this runner and everything it starts reads no machine config (isolatedGit.ts).
import "../isolatedGit";
import { execFileSync } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { format } from "node:util";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { makeScratch, startCodeServer, type CodeServer, type SessionSetup } from "./codeServer";
import { drivePanel } from "./panelDriver";
import { recordPastSwarm, wantsPastSwarm } from "./pastSwarmSetup";
import {
  panelDriveRequestPrefix,
  panelInputRequestPrefix,
  screenshotRequestPrefix,
  suiteOutputPrefix,
  type PanelDriveRequest,
  type PanelInputRequest,
} from "./suite/automationMarkers";

const repoRoot = path.resolve(__dirname, "../../..");
const suiteDir = path.join(repoRoot, "out/test/host/suite");
const suiteIndex = path.join(suiteDir, "index.js");
/** The window-reload suite runs in a session of its own: its reload restarts the extension host and its tests. */
const reloadIndex = path.join(suiteDir, "reloadIndex.js");
/** The same for the shared worker's reload suite (issue 26): the swarm must outlive the reload there. */
const sharedReloadIndex = path.join(suiteDir, "sharedReloadIndex.js");
/** Two windows at once, one on each folder, both on this entry (issue 26: two extension hosts on one server). */
const twoWindowsIndex = path.join(suiteDir, "twoWindowsIndex.js");
const artifacts = path.join(repoRoot, ".test-artifacts/host");
const chromiumPath = process.env.SWARMBOARD_CHROMIUM ?? "/usr/bin/chromium";
// The whole suite (56 tests, several scripted swarms) takes about 9 min on a quiet 2-core machine; the limit leaves room.
const overallTimeoutMs = 25 * 60_000;
/** SWARMBOARD_HOST_VERBOSE=1 also prints the workbench's own log lines (they always go to workbench.log). */
const verbose = process.env.SWARMBOARD_HOST_VERBOSE === "1";

// FACTS.md's flags. `--headless` and a fresh `--user-data-dir` come from playwright itself (launch() makes a
// throwaway profile and refuses a user-data-dir argument).
const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-dev-shm-usage",
];

function preflight(): void {
  const missing: string[] = [];
  if (!existsSync(path.join(repoRoot, "dist/host/extension.js")))
    missing.push("dist/host/extension.js (run `npm run build`)");
  if (!existsSync(suiteIndex)) missing.push(`${path.relative(repoRoot, suiteIndex)} (run \`npm run compile:tests\`)`);
  if (!existsSync(chromiumPath))
    missing.push(`${chromiumPath} (apt-get install -y chromium, or set SWARMBOARD_CHROMIUM)`);
  if (missing.length > 0) throw new Error(`host tests cannot start; missing:\n  ${missing.join("\n  ")}`);
}

function workbenchUrl(server: CodeServer, workspace: string, testsIndex: string): string {
  // The extension host runs on the code-server side, so the payload names server paths as vscode-remote URIs.
  const remote = (p: string) => `vscode-remote://127.0.0.1:${server.port}${p}`;
  const payload = [
    ["extensionDevelopmentPath", remote(repoRoot)],
    ["extensionTestsPath", remote(testsIndex)],
    ["skipWelcome", "true"],
    ["skipReleaseNotes", "true"],
  ];
  return `${server.url}?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/** Mocha's own summary lines, kept for the closing line. */
const counts = { passing: 0, failing: 0, pending: 0, reported: false };

function tally(line: string): void {
  const m = /^\s+(\d+) (passing|failing|pending)\b/.exec(line);
  if (!m) return;
  // Summed: each session (the main suite, the window-reload suite) reports its own.
  counts[m[2] as "passing" | "failing" | "pending"] += Number(m[1]);
  counts.reported = true;
}

/** The last line of the output, for CI: `N passed, N failed`. */
function closingLine(code: number, seconds: number): string {
  if (!counts.reported)
    return `host tests: 0 passed, 1 failed (the suite reported no result; exit code ${code}; see .test-artifacts/host/)`;
  const failed = counts.failing + counts.pending + (code !== 0 && counts.failing === 0 ? 1 : 0);
  return `host tests: ${counts.passing} passed, ${failed} failed (exit code ${code}, ${seconds.toFixed(1)} s)`;
}

/**
 * Wires the automation hooks VS Code's web workbench calls in test mode. Every workbench log line goes to
 * .test-artifacts/host/workbench.log; the suite's own lines (marked by suite/index.ts) are streamed to stdout.
 */
async function exposeAutomation(page: Page, logFile: string): Promise<{ exited: Promise<number> }> {
  let finish: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => (finish = resolve));
  await page.exposeFunction("codeAutomationLog", async (type: string, args: unknown[]) => {
    const text = format(...args);
    appendFileSync(logFile, `[${type}] ${text}\n`);
    if (text.startsWith(screenshotRequestPrefix)) {
      await takeScreenshot(page, text.slice(screenshotRequestPrefix.length).trim());
    } else if (text.startsWith(panelInputRequestPrefix)) {
      await typeInPanel(page, JSON.parse(text.slice(panelInputRequestPrefix.length)) as PanelInputRequest);
    } else if (text.startsWith(panelDriveRequestPrefix)) {
      await drivePanel(page, artifacts, JSON.parse(text.slice(panelDriveRequestPrefix.length)) as PanelDriveRequest);
    } else if (text.startsWith(suiteOutputPrefix)) {
      const line = text.slice(suiteOutputPrefix.length);
      tally(line);
      process.stdout.write(`${line}\n`);
    } else if (verbose) {
      process.stderr.write(`workbench [${type}] ${text}\n`);
    }
  });
  await page.exposeFunction("codeAutomationExit", (code: number) => finish(code));
  return { exited };
}

async function takeScreenshot(page: Page, name: string): Promise<void> {
  if (!/^[a-z0-9-]+$/.test(name)) {
    process.stderr.write(`host tests: refused a screenshot name "${name}" (use a-z, 0-9, -)\n`);
    return;
  }
  const file = path.join(artifacts, `${name}.png`);
  await page.screenshot({ path: `${file}.partial.png` });
  // Renamed into place only when complete: the suite waits for the final name to appear.
  rmSync(file, { force: true });
  renameSync(`${file}.partial.png`, file);
  process.stdout.write(`host tests: screenshot saved to ${path.relative(repoRoot, file)}\n`);
}

/**
 * Types into the Swarmboard panel as a user would: the panel's page lives in a webview frame, found by the box's
 * aria-label. Writes `<name>.input.json` (ok, or what was missing) for the suite to read.
 */
async function typeInPanel(page: Page, request: PanelInputRequest): Promise<void> {
  if (!/^[a-z0-9-]+$/.test(request.name)) {
    process.stderr.write(`host tests: refused a panel input name "${request.name}" (use a-z, 0-9, -)\n`);
    return;
  }
  let outcome: { ok: boolean; error?: string } = { ok: false, error: `no frame has the box "${request.fill.label}"` };
  try {
    for (const frame of page.frames()) {
      const box = frame.locator(`textarea[aria-label="${request.fill.label}"]`);
      if ((await box.count()) === 0) continue;
      if (request.select)
        await frame.locator(`select[aria-label="${request.select.label}"]`).selectOption(request.select.value);
      await box.fill(request.fill.text);
      await frame.getByRole("button", { name: request.click, exact: true }).click();
      outcome = { ok: true };
      break;
    }
  } catch (error) {
    outcome = { ok: false, error: (error as Error).message };
  }
  writeFileSync(path.join(artifacts, `${request.name}.input.json`), JSON.stringify(outcome));
}

/** The workbench opens a git repository of the sample project: swarms need one (agents work on branches). */
function prepareSampleRepo(workspace: string): void {
  cpSync(path.join(repoRoot, "examples/sample-workspace"), workspace, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=Swarmboard Tests", "-c", "user.email=tests@swarmboard.invalid", ...args], {
      cwd: workspace,
      stdio: "pipe",
    });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "sample project");
}

/** The second window's folder: the sample project again, a repository of its own. */
function secondFolder(scratch: string): string {
  const folder = path.join(scratch, "workspace-b");
  if (!existsSync(folder)) {
    mkdirSync(folder, { recursive: true });
    prepareSampleRepo(folder);
  }
  return folder;
}

/** A suite entry and how many windows run it at once (each on a folder of its own). */
interface Session {
  readonly index: string;
  readonly windows: 1 | 2;
  /** The suite file SWARMBOARD_HOST_ONLY names to pick it (none: the main suite, picked by its *.test.js files). */
  readonly suite?: string;
  /** Its code-server's own runtime folder and settings (see SessionSetup). */
  readonly setup: SessionSetup;
}

/** The sessions SWARMBOARD_HOST_ONLY selects: the main suite if it names any of its files, the others if named. */
function selectedSessions(): Session[] {
  const only = (process.env.SWARMBOARD_HOST_ONLY ?? "").split(",").filter((p) => p !== "");
  const picks = (file: string) => only.length === 0 || only.some((p) => file.startsWith(p));
  const main = readdirSync(suiteDir).some((f) => f.endsWith(".test.js") && picks(f));
  const sessions: Session[] = [
    { index: suiteIndex, windows: 1, setup: { name: "main" } },
    // About the private worker: the reload ends it and the swarm in it (on the shared one the swarm runs on, which
    // sharedReload tests). Set for the session, so the reloaded window starts private too.
    {
      index: reloadIndex,
      windows: 1,
      suite: "windowReload.suite.js",
      setup: { name: "reload", settings: { "swarmboard.sharedWorker": false } },
    },
    { index: sharedReloadIndex, windows: 1, suite: "sharedReload.suite.js", setup: { name: "shared" } },
    { index: twoWindowsIndex, windows: 2, suite: "twoWindows.suite.js", setup: { name: "two" } },
  ];
  return sessions.filter((s) => (s.suite === undefined ? main : picks(s.suite)));
}

/** One workbench page running one suite entry; resolves with its exit code (124 when it gave no result in time). */
async function runSession(browser: Browser, server: CodeServer, url: string, logFile: string): Promise<number> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  page.on("pageerror", (err) => process.stderr.write(`host tests: page error: ${err.message}\n`));
  const { exited } = await exposeAutomation(page, logFile);
  // Browser-side errors (a webview's CSP violations among them) go to the same log, for diagnosis.
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") appendFileSync(logFile, `[browser ${m.type()}] ${m.text()}\n`);
  });
  await page.goto(url);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<number>((resolve) => {
    timer = setTimeout(() => {
      process.stderr.write(
        `host tests: no result within ${overallTimeoutMs / 1000} s; code-server said:\n${server.output()}\n`,
      );
      resolve(124);
    }, overallTimeoutMs);
    timer.unref();
  });
  const code = await Promise.race([exited, timeout]);
  clearTimeout(timer);
  await page.close().catch(() => undefined);
  return code;
}

async function main(): Promise<number> {
  preflight();
  const started = Date.now();
  // A fresh folder: a screenshot left by an earlier run must not satisfy this run's request.
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  const scratch = makeScratch();
  const workspace = path.join(scratch, "workspace");
  mkdirSync(workspace, { recursive: true });
  prepareSampleRepo(workspace);
  if (wantsPastSwarm()) {
    const swarmId = recordPastSwarm(repoRoot, workspace, scratch);
    process.stdout.write(`host tests: recorded past swarm ${swarmId} with the CLI before the host starts\n`);
  }

  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
    const logFile = path.join(artifacts, "workbench.log");
    writeFileSync(logFile, "");
    writeFileSync(path.join(artifacts, "code-server.log"), "");
    let code = 0;
    for (const session of selectedSessions()) {
      const end = await runInOwnServer(browser, session, workspace, scratch, logFile);
      if (code === 0 && end !== 0) code = end;
    }
    // A pending (skipped) test counts as failed: the house rules allow none.
    const result = code === 0 && counts.pending > 0 ? 1 : code;
    process.stdout.write(`${closingLine(result, (Date.now() - started) / 1000)}\n`);
    return result;
  } finally {
    await browser?.close().catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * One session in a code-server of its own (its own runtime folder, so its own shared worker), stopped with the
 * workers its windows started before the next session begins: no session sees another's server, model loads or
 * draining. Resolves with the first failing window's exit code, or 0.
 */
async function runInOwnServer(
  browser: Browser,
  session: Session,
  workspace: string,
  scratch: string,
  logFile: string,
): Promise<number> {
  const starting = Date.now();
  const server = await startCodeServer(repoRoot, scratch, session.setup);
  try {
    process.stdout.write(
      `host tests: code-server for ${session.suite ?? "the main suite"} at ${server.url} ` +
        `(${((Date.now() - starting) / 1000).toFixed(1)} s)\n`,
    );
    const folders = session.windows === 1 ? [workspace] : [workspace, secondFolder(scratch)];
    const ends = await Promise.all(
      folders.map((f) => runSession(browser, server, workbenchUrl(server, f, session.index), logFile)),
    );
    return ends.find((c) => c !== 0) ?? 0;
  } finally {
    await server.stop();
    appendFileSync(path.join(artifacts, "code-server.log"), `--- ${session.setup.name} ---\n${server.output()}`);
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`host tests: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.stdout.write("host tests: 0 passed, 1 failed (the host tests could not run; see above)\n");
    process.exit(1);
  },
);
