// `swarmboard runtime build [--gpu <type>]`: builds the shared-cells runtime for this machine with the builder npm
// install runs (src/worker/runtimeBuild/runtimeBuild.ts), its lines on stdout, Ctrl-C to cancel. The command
// "Swarmboard: Build Runtime for This Machine" runs this command in a child process and shows the same lines.
import path from "node:path";
import { buildGpus, type BuildGpu } from "../core/buildToolsCheck";
import { buildRuntime, type RuntimeBuildOutcome } from "../worker/runtimeBuild/runtimeBuild";
import { readFlags, UsageError } from "./flagParsing";
import { exitCodes } from "./runSummary";

export interface RuntimeBuildArgs {
  readonly gpu: BuildGpu;
}

export function parseRuntimeBuild(argv: string[]): RuntimeBuildArgs {
  const flags = readFlags(argv, new Set(["--gpu"]), new Set());
  const asked = flags.get("--gpu") ?? "false";
  const gpu = asked === "cpu" ? "false" : asked;
  if (!(buildGpus as readonly string[]).includes(gpu)) {
    throw new UsageError(`--gpu expects false (the CPU), cuda, vulkan or metal, got "${asked}".`);
  }
  return { gpu: gpu as BuildGpu };
}

/** The folder this CLI was installed with: dist/cli/main.js sits two levels below it (a clone or the extension). */
function installRoot(): string {
  return path.resolve(__dirname, "..", "..");
}

/** What a finished build says, and its exit code. */
export function outcomeText(outcome: RuntimeBuildOutcome): { text: string; code: number } {
  const next = "The next worker loads it (restart a running one: Swarmboard: Restart Worker).";
  switch (outcome.kind) {
    case "already-built":
      return { text: `Already built: ${outcome.key} is installed. Nothing to do.`, code: exitCodes.completed };
    case "restored":
      return { text: `Installed ${outcome.key} from the cache (${outcome.cacheDir}). ${next}`, code: 0 };
    case "built":
      return {
        text: `Built ${outcome.key} in ${Math.round(outcome.seconds)} s and cached it in ${outcome.cacheDir}. ${next}`,
        code: exitCodes.completed,
      };
    case "refused":
      return { text: outcome.text, code: exitCodes.failed };
    case "failed":
      // The summary last: a terminal's last screen and the VS Code notification (the output's last lines) show the
      // first error, what to do and the log, after the build's own last lines.
      return { text: `Last lines:\n${outcome.lastLines.join("\n")}\n${outcome.text}`, code: exitCodes.failed };
    case "cancelled":
      return { text: outcome.text, code: exitCodes.stopped };
  }
}

export async function runtimeBuildCommand(args: RuntimeBuildArgs): Promise<number> {
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    const outcome = await buildRuntime({
      root: installRoot(),
      gpu: args.gpu,
      onLine: (line) => process.stdout.write(`${line}\n`),
      signal: abort.signal,
    });
    const { text, code } = outcomeText(outcome);
    (code === 0 ? process.stdout : process.stderr).write(`${text}\n`);
    return code;
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}
