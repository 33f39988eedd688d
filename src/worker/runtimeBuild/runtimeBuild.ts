// Builds the shared-cells runtime on the user's own machine: what `swarmboard runtime build` and the command
// "Swarmboard: Build Runtime for This Machine" both run. The builder is scripts/buildRuntime.mjs, the one npm
// install runs (same steps, same cache key): it is asked first whether the build for this key is installed or
// cached (then no compiler is needed); else the tools are checked (src/core/buildToolsCheck.ts) and a machine
// without them gets what to install and no build. The builder's lines go to the caller (progress) and to a log
// file; a cancel kills its whole process tree. A build is stored in the cache through a staging folder renamed at
// the end (buildSteps.mjs), so a killed or failed one leaves no entry, and the installed runtime is only replaced
// after a build succeeded: a failure leaves the working one in place, and says where its log is.
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { checkBuildTools, type BuildGpu } from "../../core/buildToolsCheck";
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
}

export type RuntimeBuildOutcome =
  | { readonly kind: "already-built"; readonly key: string }
  | { readonly kind: "restored"; readonly key: string; readonly cacheDir: string }
  | { readonly kind: "built"; readonly key: string; readonly cacheDir: string; readonly seconds: number }
  | { readonly kind: "refused"; readonly text: string }
  | { readonly kind: "failed"; readonly text: string; readonly logFile: string; readonly lastLines: readonly string[] }
  | { readonly kind: "cancelled"; readonly text: string };

interface BuildStatus {
  readonly key: string;
  readonly cacheDir: string;
  readonly installed: boolean;
  readonly cached: boolean;
}

const lastLineCount = 20;

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
  const lastLines: string[] = [];
  // Its own process group, so that a cancel reaches npx, cmake and the compilers under it.
  const child = spawn(process.execPath, [builderScript(options.root), "--gpu", options.gpu], {
    cwd: options.root,
    env: builderEnv(options),
    detached: process.platform !== "win32",
    windowsHide: true,
  });
  const onData = lineSplitter((line) => {
    log.write(`${line}\n`);
    lastLines.push(line);
    if (lastLines.length > lastLineCount) lastLines.shift();
    options.onLine?.(line);
  });
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  let cancelled = false;
  const cancel = () => {
    cancelled = true;
    killTree(child.pid);
  };
  options.signal?.addEventListener("abort", cancel, { once: true });
  if (options.signal?.aborted === true) cancel();
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      options.signal?.removeEventListener("abort", cancel);
      log.end();
      if (cancelled) {
        removeStaging(status.cacheDir);
        resolve({ kind: "cancelled", text: "The runtime build was cancelled; nothing was stored in the cache." });
      } else if (code === 0) {
        resolve({ kind: "done" });
      } else {
        const how = signal !== null ? `killed by ${signal}` : `exit ${String(code)}`;
        const text = `The runtime build failed (${how}); the runtime you have keeps working. Log: ${logFile}`;
        resolve({ kind: "failed", text, logFile, lastLines: [...lastLines] });
      }
    });
  });
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

function killTree(pid: number | undefined): void {
  if (pid === undefined) return;
  if (process.platform === "win32") {
    spawnSync("taskkill", ["/pid", String(pid), "/T", "/F"], { windowsHide: true });
    return;
  }
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    // The group is gone already.
  }
}

/** A build killed while it stored itself leaves its staging folder (<key>.partial-<pid>); never the entry. */
function removeStaging(cacheDir: string): void {
  const parent = path.dirname(cacheDir);
  if (!existsSync(parent)) return;
  for (const name of readdirSync(parent)) {
    if (name.startsWith(`${path.basename(cacheDir)}.partial-`)) {
      rmSync(path.join(parent, name), { recursive: true, force: true });
    }
  }
}
