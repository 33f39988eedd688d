// Builds the shared-cells runtime on the user's own machine: what `swarmboard runtime build` and the command
// "Swarmboard: Build Runtime for This Machine" both run. The builder is scripts/buildRuntime.mjs, the one npm
// install runs (same steps, same cache key): it is asked first whether the build for this key is installed or
// cached (then no compiler is needed); else the tools are checked (src/core/buildToolsCheck.ts) and a machine
// without them gets what to install and no build. The builder's lines go to the caller (progress) and to a log
// file; a cancel kills its whole process tree (buildProcessTree.ts). A build is stored in the cache through a
// staging folder renamed at the end (buildSteps.mjs), so a killed or failed one leaves no entry, and the installed
// runtime is only replaced once the new one has compiled: a failed compile leaves the working one in place, and
// says its first error, what to do and where its log is. A failed or cancelled build's half-compiled folder
// (hundreds of MB of objects in node-llama-cpp's localBuilds, never loaded) is removed.
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { isBuildErrorLine, withoutBuildNoise } from "../../core/buildFailureLines";
import { checkBuildTools, type BuildGpu } from "../../core/buildToolsCheck";
import { killBuildTree } from "./buildProcessTree";
import { probeBuildTools } from "./buildToolProbes";

export interface RuntimeBuildOptions {
  /** The folder with scripts/buildRuntime.mjs and node_modules/node-llama-cpp: a clone, or the extension's own. */
  readonly root: string;
  readonly gpu: BuildGpu;
  /** The builder's environment (PATH, SWARMBOARD_BUILD_CACHE, ...); default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** Each line the build prints, as it prints it. */
  readonly onLine?: (line: string) => void;
  /** Aborting kills the build; nothing is left in the cache. */
  readonly signal?: AbortSignal;
  /** How long a cancelled build's processes have after SIGTERM before SIGKILL (default 10 s). */
  readonly killGraceMs?: number;
}

export type RuntimeBuildOutcome =
  | { readonly kind: "already-built"; readonly key: string }
  | { readonly kind: "restored"; readonly key: string; readonly cacheDir: string }
  | { readonly kind: "built"; readonly key: string; readonly cacheDir: string; readonly seconds: number }
  | { readonly kind: "refused"; readonly text: string }
  | {
      readonly kind: "failed";
      readonly text: string;
      readonly logFile: string;
      /** The last lines without node-llama-cpp's usage text and stack frames (the log has every line). */
      readonly lastLines: readonly string[];
    }
  | { readonly kind: "cancelled"; readonly text: string };

interface BuildStatus {
  readonly key: string;
  readonly cacheDir: string;
  readonly installed: boolean;
  readonly cached: boolean;
}

const lastLineCount = 20;
/** Lines kept before the noise is taken out, so that 20 remain after node-llama-cpp's usage text. */
const tailCount = 80;
const defaultKillGraceMs = 10_000;

function builderScript(root: string): string {
  return path.join(root, "scripts", "buildRuntime.mjs");
}

/** The environment the builder runs in: the portable flavor (a native build's folder is the working one, which
 * node-llama-cpp removes before compiling), and Node for Electron's binary when the extension host runs it. */
function builderEnv(options: RuntimeBuildOptions): NodeJS.ProcessEnv {
  return { ...(options.env ?? process.env), SWARMBOARD_RUNTIME_BUILD: "portable", ELECTRON_RUN_AS_NODE: "1" };
}

function buildStatus(options: RuntimeBuildOptions): BuildStatus | string {
  const result = spawnSync(process.execPath, [builderScript(options.root), "--gpu", options.gpu, "--status"], {
    cwd: options.root,
    env: builderEnv(options),
    encoding: "utf8",
    windowsHide: true,
  });
  const line = result.stdout?.trim().split("\n").at(-1) ?? "";
  if (result.status !== 0 || !line.startsWith("{")) return `${result.stdout ?? ""}${result.stderr ?? ""}`.trim();
  return JSON.parse(line) as BuildStatus;
}

/** Builds (or restores from the cache) the runtime for `options.gpu`; resolves with what happened, never throws
 * for a build that could not run or failed. */
export async function buildRuntime(options: RuntimeBuildOptions): Promise<RuntimeBuildOutcome> {
  if (!existsSync(builderScript(options.root))) {
    return {
      kind: "refused",
      text:
        `This install has no runtime builder (${builderScript(options.root)} is missing). Build in a clone of ` +
        "Swarmboard instead: npm ci (or node scripts/buildRuntime.mjs).",
    };
  }
  const status = buildStatus(options);
  if (typeof status === "string") return { kind: "refused", text: `The runtime builder cannot start: ${status}` };
  if (!status.installed && !status.cached) {
    const nlcDir = path.join(options.root, "node_modules", "node-llama-cpp");
    const verdict = checkBuildTools(probeBuildTools(options.gpu, nlcDir, options.env ?? process.env), options.gpu);
    if (verdict.kind !== "ready") return { kind: "refused", text: verdict.text };
    options.onLine?.(`[swarmboard runtime] building with ${verdict.tools}`);
  }
  const started = Date.now();
  const ran = await runBuilder(options, status);
  if (ran.kind !== "done") return ran;
  if (status.installed) return { kind: "already-built", key: status.key };
  if (status.cached) return { kind: "restored", key: status.key, cacheDir: status.cacheDir };
  return { kind: "built", key: status.key, cacheDir: status.cacheDir, seconds: (Date.now() - started) / 1000 };
}

type BuilderRun = { readonly kind: "done" } | Extract<RuntimeBuildOutcome, { kind: "failed" | "cancelled" }>;

function runBuilder(options: RuntimeBuildOptions, status: BuildStatus): Promise<BuilderRun> {
  const logDir = path.join(path.dirname(status.cacheDir), "logs");
  mkdirSync(logDir, { recursive: true });
  const logFile = path.join(logDir, `${status.key}-${new Date().toISOString().replace(/[:.]/g, "-")}.log`);
  const log = createWriteStream(logFile);
  const tail: string[] = [];
  let firstError: string | undefined;
  // Its own process group, so that a cancel reaches npm, cmake and the compilers under it.
  const args = [builderScript(options.root), "--gpu", options.gpu, "--from-command"];
  const child = spawn(process.execPath, args, {
    cwd: options.root,
    env: builderEnv(options),
    detached: process.platform !== "win32",
    windowsHide: true,
  });
  const onData = lineSplitter((line) => {
    log.write(`${line}\n`);
    tail.push(line);
    if (tail.length > tailCount) tail.shift();
    if (firstError === undefined && isBuildErrorLine(line)) firstError = line.trim();
    options.onLine?.(line);
  });
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  let cancelled = false;
  let stopKilling = (): void => undefined;
  const cancel = () => {
    cancelled = true;
    if (child.pid !== undefined) stopKilling = killBuildTree(child.pid, options.killGraceMs ?? defaultKillGraceMs);
  };
  options.signal?.addEventListener("abort", cancel, { once: true });
  if (options.signal?.aborted === true) cancel();
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      stopKilling();
      options.signal?.removeEventListener("abort", cancel);
      log.end();
      if (code !== 0 || cancelled) removeUnfinished(options.root, status.cacheDir);
      if (cancelled) {
        resolve({ kind: "cancelled", text: "The runtime build was cancelled; nothing was stored in the cache." });
      } else if (code === 0) {
        resolve({ kind: "done" });
      } else {
        const how = signal !== null ? `killed by ${signal}` : `exit ${String(code)}`;
        resolve({ kind: "failed", text: failureText(how, firstError, logFile), logFile, lastLines: lastOf(tail) });
      }
    });
  });
}

/** What a failed build says: that the working runtime stays, its first error, what to do, where the log is. */
function failureText(how: string, firstError: string | undefined, logFile: string): string {
  return [
    `The runtime build failed (${how}); the runtime you have keeps working.`,
    ...(firstError !== undefined ? [`First error: ${firstError}`] : []),
    "Fix what the log says (often a missing or broken compiler, cmake or GPU toolkit), then build again: " +
      "Swarmboard: Build Runtime for This Machine, or `swarmboard runtime build`.",
    `Log: ${logFile}`,
  ].join("\n");
}

function lastOf(tail: readonly string[]): string[] {
  return withoutBuildNoise(tail).slice(-lastLineCount);
}

/** Calls `each` with every whole line of a stream's chunks (a line split across chunks is joined). */
function lineSplitter(each: (line: string) => void): (chunk: Buffer) => void {
  let pending = "";
  return (chunk) => {
    const parts = (pending + chunk.toString("utf8")).split(/\r?\n|\r/);
    pending = parts.pop() ?? "";
    for (const line of parts) if (line.trim() !== "") each(line);
  };
}

/**
 * What a failed or killed build leaves: its staging folder in the cache (<key>.partial-<pid>, when killed while it
 * stored itself; never the entry) and node-llama-cpp's half-compiled build folder (no buildDone.status, which
 * node-llama-cpp writes last; such a folder never loads). The installed build has buildDone.status and stays.
 */
function removeUnfinished(root: string, cacheDir: string): void {
  const parent = path.dirname(cacheDir);
  const staging = `${path.basename(cacheDir)}.partial-`;
  const localBuilds = path.join(root, "node_modules", "node-llama-cpp", "llama", "localBuilds");
  for (const [dir, unfinished] of [
    [parent, (name: string) => name.startsWith(staging)],
    [localBuilds, (name: string) => !existsSync(path.join(localBuilds, name, "buildDone.status"))],
  ] as const) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (unfinished(name)) rmSync(path.join(dir, name), { recursive: true, force: true });
    }
  }
}
