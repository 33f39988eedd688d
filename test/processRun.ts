// A child process run to its end with a deadline, for the tests that run the CLI or a script whole. spawnSync
// cannot do this: it blocks mocha's event loop, so no test timeout fires, and a child that hangs (or ignores
// SIGTERM, as the CLI does while it interrupts its swarm) holds the whole tier until CI's own limit kills everything
// without a word. Here a child past its deadline is asked for a Node diagnostic report (its JavaScript stack, native
// stack and open handles: where it hung), then killed with its whole process group, and the test fails with what
// it printed and where it was.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface ProcessRunOptions {
  /** How long the child may run: the run's own budget (a recipe's wall clock, a build's) plus its start and end. */
  readonly timeoutMs: number;
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Written to the child's stdin, which is then closed (like spawnSync's `input`); stdin is closed at once without. */
  readonly input?: string;
  /** What else to show when the child ran past its deadline (e.g. the last events of the swarm it ran). */
  readonly whenOverdue?: () => string;
}

export interface ProcessRunResult {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node <args>` (a Node script: it gets --report-on-signal so a hang says where it is). */
export function runNode(args: readonly string[], options: ProcessRunOptions): Promise<ProcessRunResult> {
  const reportDir = mkdtempSync(path.join(tmpdir(), "swarmboard-hang-report-"));
  const flags = ["--report-on-signal", "--report-signal=SIGUSR2", `--report-dir=${reportDir}`];
  return runProcess(process.execPath, [...flags, ...args], options, reportDir).finally(() =>
    rmSync(reportDir, { recursive: true, force: true }),
  );
}

function runProcess(
  command: string,
  args: readonly string[],
  options: ProcessRunOptions,
  reportDir: string,
): Promise<ProcessRunResult> {
  // detached: the child leads a process group of its own, so the kill reaches what it started (workers, git, bwrap).
  const child = spawn(command, args, { env: options.env, cwd: options.cwd, detached: true, stdio: "pipe" });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  child.stdin.on("error", () => undefined);
  child.stdin.end(options.input ?? "");
  return new Promise((resolve, reject) => {
    let overdue = false;
    let cpuAtDeadline: number | undefined;
    const deadline = setTimeout(() => {
      overdue = true;
      if (child.pid === undefined) return;
      cpuAtDeadline = cpuSecondsOf(child.pid);
      try {
        process.kill(child.pid, "SIGUSR2");
      } catch {
        // Gone between the deadline and the signal: its close event settles the promise.
      }
      // The child writes its report when its JavaScript next yields to the signal's interrupt: wait for the file
      // (at most 5 s: one stuck in native code never writes it), then end the whole group.
      void waitForReport(reportDir, 5_000).then(() => killGroup(child.pid!));
    }, options.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    child.on("close", (status, signal) => {
      clearTimeout(deadline);
      if (!overdue) return resolve({ status, signal, stdout, stderr });
      reject(
        new Error(
          overdueText(
            command,
            args,
            options.timeoutMs,
            { stdout, stderr },
            reportDir,
            cpuAtDeadline,
            options.whenOverdue,
          ),
        ),
      );
    });
  });
}

async function waitForReport(reportDir: string, limitMs: number): Promise<void> {
  const until = Date.now() + limitMs;
  while (Date.now() < until && !readdirSync(reportDir).some((f) => f.endsWith(".json"))) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // A report appears under its final name once written whole; a moment more for the file system to settle.
  await new Promise((resolve) => setTimeout(resolve, 100));
}

/** The CPU seconds a process has used so far (Linux /proc), to tell a child spinning from one waiting. */
function cpuSecondsOf(pid: number): number | undefined {
  try {
    // Fields after the command's closing parenthesis: state is the 1st, utime the 12th, stime the 13th (ticks).
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** Node writes a signal's report from its event loop: no report means the loop never turned. */
function busyOrBlocked(cpuSeconds: number | undefined): string {
  const cpu = cpuSeconds === undefined ? "" : ` (${cpuSeconds.toFixed(1)} s of CPU by then)`;
  return `its event loop did not turn in 5 s after SIGUSR2: it was busy in JavaScript or native code, or blocked in a synchronous call${cpu}`;
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // The group is already gone.
  }
}

function safely(describe: () => string): string {
  try {
    return describe();
  } catch (error) {
    return `(and what the test would add: ${String(error)})`;
  }
}

export function tail(text: string, lines: number): string {
  return text.split("\n").slice(-lines).join("\n");
}

function overdueText(
  command: string,
  args: readonly string[],
  timeoutMs: number,
  out: { stdout: string; stderr: string },
  reportDir: string,
  cpuSeconds: number | undefined,
  whenOverdue: (() => string) | undefined,
): string {
  const shown = [command, ...args].map((a) => path.basename(a)).join(" ");
  return [
    `${shown} ran past its ${(timeoutMs / 1000).toFixed(0)} s and was killed (its process group, SIGKILL).`,
    `stdout (last 40 lines):\n${tail(out.stdout, 40)}`,
    `stderr (last 40 lines):\n${tail(out.stderr, 40)}`,
    `where it was (its diagnostic report at the deadline):\n${hangReport(reportDir, cpuSeconds)}`,
    ...(whenOverdue === undefined ? [] : [safely(whenOverdue)]),
  ].join("\n");
}

/** The JavaScript and native stacks and the open handles of the report the child wrote, or why there is none. */
function hangReport(reportDir: string, cpuSeconds: number | undefined): string {
  const file = readdirSync(reportDir).find((f) => f.endsWith(".json"));
  if (file === undefined) return `(no report: ${busyOrBlocked(cpuSeconds)})`;
  let report: {
    javascriptStack?: { message?: string; stack?: string[] };
    nativeStack?: { symbol?: string }[];
    libuv?: { type?: string; is_active?: boolean; is_referenced?: boolean; details?: string }[];
  };
  try {
    report = JSON.parse(readFileSync(path.join(reportDir, file), "utf8")) as typeof report;
  } catch (error) {
    return `(the report ${file} could not be read whole: ${String(error)})`;
  }
  const js = [report.javascriptStack?.message ?? "", ...(report.javascriptStack?.stack ?? [])].join("\n  ");
  const native = (report.nativeStack ?? []).map((f) => f.symbol ?? "?").slice(0, 25);
  const handles = (report.libuv ?? [])
    .filter((h) => h.is_active === true && h.is_referenced === true)
    .map((h) => `${h.type ?? "?"} ${h.details ?? ""}`.trim());
  return [`JavaScript: ${js}`, `native:\n  ${native.join("\n  ")}`, `open handles:\n  ${handles.join("\n  ")}`].join(
    "\n",
  );
}
