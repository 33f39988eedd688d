// "Swarmboard: Build Runtime for This Machine": runs `swarmboard runtime build` (the CLI bundle this extension
// ships, dist/cli/main.js) in a child process, so the build, the tool check and the cache are the CLI's, written
// once (src/worker/runtimeBuild). Its lines go to the Swarmboard log and, as a percentage where make or ninja
// counts, to a cancellable progress notification; cancel stops the CLI, which kills the build's process group.
import { spawn } from "node:child_process";
import path from "node:path";
import * as vscode from "vscode";
import { buildProgressLine } from "../core/buildProgress";
import type { HostLog } from "./hostLog";

/** What the command resolves to (tests read it): the CLI's exit code and its last lines. */
export interface RuntimeBuildResult {
  readonly code: number | null;
  readonly lines: readonly string[];
}

const gpuChoices: ReadonlyArray<vscode.QuickPickItem & { gpu: string }> = [
  { label: "CPU", description: "every machine", gpu: "false" },
  { label: "Vulkan", description: "most GPUs (needs the Vulkan SDK)", gpu: "vulkan" },
  { label: "CUDA", description: "NVIDIA GPUs (needs the CUDA toolkit)", gpu: "cuda" },
  { label: "Metal", description: "Apple silicon", gpu: "metal" },
];

async function askGpu(): Promise<string | undefined> {
  const choices = gpuChoices.filter((c) => (process.platform === "darwin" ? c.gpu !== "cuda" : c.gpu !== "metal"));
  const picked = await vscode.window.showQuickPick(choices, { title: "Build the Swarmboard runtime for" });
  return picked?.gpu;
}

/** Runs the build for `arg.gpu` (asked when absent) with progress; says how it ended. */
export async function buildRuntimeCommand(
  extensionPath: string,
  log: HostLog,
  arg?: { gpu?: string },
): Promise<RuntimeBuildResult | undefined> {
  const gpu = arg?.gpu ?? (await askGpu());
  if (gpu === undefined) return undefined;
  const cli = path.join(extensionPath, "dist", "cli", "main.js");
  const lines: string[] = [];
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: "Swarmboard runtime", cancellable: true },
    (progress, token) =>
      new Promise<RuntimeBuildResult>((resolve) => {
        const child = spawn(process.execPath, [cli, "runtime", "build", "--gpu", gpu], {
          env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" },
          windowsHide: true,
        });
        let shown = 0;
        const onLine = (line: string) => {
          lines.push(line);
          if (lines.length > 40) lines.shift();
          log.info(`runtime build: ${line}`);
          const { percent, text } = buildProgressLine(line);
          const increment = percent !== undefined && percent > shown ? percent - shown : undefined;
          if (increment !== undefined) shown = percent!;
          progress.report({ message: text, ...(increment !== undefined ? { increment } : {}) });
        };
        let pending = "";
        const onData = (chunk: Buffer) => {
          const parts = (pending + chunk.toString("utf8")).split(/\r?\n|\r/);
          pending = parts.pop() ?? "";
          for (const part of parts) if (part.trim() !== "") onLine(part);
        };
        child.stdout.on("data", onData);
        child.stderr.on("data", onData);
        token.onCancellationRequested(() => child.kill("SIGTERM"));
        child.on("close", (code) => resolve({ code, lines: [...lines] }));
      }),
  );
  void tellOutcome(result, log);
  return result;
}

/** A refusal before the build is shown whole, from its first line (a Vulkan one can run to 7 lines); a failed
 * build's last lines name its log file, and the Swarmboard log holds the lines before them. */
function failureText(lines: readonly string[]): string {
  const refusal = lines.map((line) => line.startsWith("Cannot build the runtime")).lastIndexOf(true);
  return (refusal >= 0 ? lines.slice(refusal) : lines.slice(-6)).join("\n");
}

async function tellOutcome(result: RuntimeBuildResult, log: HostLog): Promise<void> {
  const last = result.lines.at(-1) ?? "";
  if (result.code === 0) {
    const restart = "Restart Worker";
    const answer = await vscode.window.showInformationMessage(last, restart);
    if (answer === restart) await vscode.commands.executeCommand("swarmboard.restartWorker");
    return;
  }
  const shown = await vscode.window.showErrorMessage(failureText(result.lines), "Show Log");
  if (shown === "Show Log") log.show();
}
