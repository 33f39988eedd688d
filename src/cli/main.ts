// `swarmboard`: the headless runner on the same engine as the extension's worker. `run` drives a swarm
// on a git workspace and ends with a summary and an exit code that says how it ended.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { extensionVersion } from "../protocol/buildInfo";
import { swarmEventSchema, type SwarmEvent } from "../protocol/swarmEvents";
import { scriptFromTrace } from "../core/traceScript";
import { turnScriptSchema } from "../protocol/turnScript";
import { parseCommandLine, usageText, UsageError, type PullOptions, type RunOptions } from "./args";
import { TerminalView, budgetLine } from "./terminalView";
import { SwarmEventThrottle } from "../core/eventThrottle";
import { SwarmSession, type SwarmSummary } from "../worker/swarmSession";
import { defaultPolicyRules } from "../worker/defaultPolicy";
import { unattendedApprover } from "../worker/approvalModes";
import { pullModelFile } from "../worker/modelFiles";
import { resolveRecipe } from "../worker/recipeResolve";
import { runMcpServer } from "./mcpServer";

/** Exit codes: how a run ended. */
export const exitCodes = { completed: 0, failed: 1, usage: 2, budget: 3, stopped: 4 } as const;

const noModelHelp = `No model given. Swarmboard needs one GGUF model, loaded once for all agents:
  swarmboard model pull hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M     (recommended, ~1.1 GB)
then run with --model <the printed path>, or set SWARMBOARD_MODEL.`;

function summaryText(summary: SwarmSummary, events: readonly SwarmEvent[], eventsFile: string): string {
  const kinds = new Map<string, number>();
  for (const e of events) if (e.type === "board-entry") kinds.set(e.entry.kind, (kinds.get(e.entry.kind) ?? 0) + 1);
  const stats = [...events].reverse().find((e) => e.type === "kv-stats");
  return [
    "",
    `== ${summary.outcome}: ${summary.reason}`,
    `report:   ${summary.reportPath}`,
    `events:   ${eventsFile}`,
    `branches: ${summary.integrationBranch} (integration)`,
    ...summary.agents.map(
      (a) =>
        `          ${a.branch ?? "(no branch)"}  ${a.id} ${a.end.outcome}: ${a.end.reason} (${a.end.steps} steps, ${a.end.tokens} tokens)`,
    ),
    `findings: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(", ") || "none"}`,
    ...(stats?.type === "kv-stats" ? [`budget:   ${budgetLine(stats.stats)}`] : []),
  ].join("\n");
}

/** The goal of the swarm a --resume continues, from the settings its first run wrote. */
function previousGoal(stateDir: string): string {
  try {
    const saved = JSON.parse(readFileSync(path.join(stateDir, "settings.json"), "utf8")) as { goal?: unknown };
    if (typeof saved.goal === "string" && saved.goal !== "") return saved.goal;
  } catch {
    // fall through to the error below
  }
  throw new UsageError(
    `--resume found no earlier swarm in ${stateDir}; give --goal, or the --state-dir of the swarm to continue.`,
  );
}

async function run(opts: RunOptions): Promise<number> {
  const modelPath = opts.model ?? process.env.SWARMBOARD_MODEL;
  if (!modelPath) {
    process.stderr.write(noModelHelp + "\n");
    return exitCodes.usage;
  }
  const { recipe, warnings } = await resolveRecipe(opts.recipe, opts.workspace);
  for (const w of warnings) process.stderr.write(`warning: ${w}\n`);
  const swarmId = recipe.name.replace(/[^a-z0-9-]/g, "-");
  const stateDir = path.resolve(
    opts.stateDir ??
      path.join(
        path.dirname(path.resolve(opts.workspace)),
        ".swarmboard-state",
        `${path.basename(path.resolve(opts.workspace))}-${swarmId}`,
      ),
  );
  mkdirSync(stateDir, { recursive: true });
  const goal = opts.goal !== "" ? opts.goal : previousGoal(stateDir);
  const eventsFile = path.resolve(opts.events ?? path.join(stateDir, "events.jsonl"));
  writeFileSync(path.join(stateDir, "recipe.json"), JSON.stringify(recipe, null, 2));
  writeFileSync(
    path.join(stateDir, "settings.json"),
    JSON.stringify({ ...opts, goal, modelPath, stateDir, version: extensionVersion }, null, 2),
  );
  const view = new TerminalView(process.stdout, process.stdout.isTTY === true && !opts.plain);
  const all: SwarmEvent[] = [];
  const throttle = new SwarmEventThrottle(
    (batch) => {
      appendFileSync(eventsFile, batch.map((e) => JSON.stringify(e)).join("\n") + "\n");
      all.push(...batch);
      view.onEvents(batch);
    },
    200,
    { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout) },
  );
  const session = new SwarmSession(
    {
      swarmId,
      goal,
      recipe,
      ...(opts.agents ? { agents: opts.agents } : {}),
      modelPath: path.resolve(modelPath),
      workspace: path.resolve(opts.workspace),
      stateDir,
      threads: opts.threads,
      ...(opts.kvCells ? { kvCells: opts.kvCells } : {}),
      ...(opts.budgetMs ? { budgetMs: opts.budgetMs } : {}),
      ...(opts.script ? { script: turnScriptSchema.parse(JSON.parse(readFileSync(opts.script, "utf8"))) } : {}),
      approver: unattendedApprover(opts.approveAsks),
      resume: opts.resume,
      policy: defaultPolicyRules,
      agentRules: !opts.noAgentRules,
    },
    (event) => throttle.push(event),
  );
  process.once("SIGINT", () => session.stop());
  process.once("SIGTERM", () => session.stop());
  const summary = await session.run().finally(() => throttle.flush());
  process.stdout.write(summaryText(summary, all, eventsFile) + "\n");
  return exitCodes[summary.outcome];
}

async function pull(opts: PullOptions): Promise<number> {
  let last = 0;
  const file = await pullModelFile(opts.uri, opts.dir, ({ downloadedBytes, totalBytes }) => {
    const pct = totalBytes > 0 ? Math.floor((downloadedBytes / totalBytes) * 100) : 0;
    if (pct !== last) process.stderr.write(`\rdownloading ${pct}%`);
    last = pct;
  });
  process.stdout.write(`\n${file}\n`);
  return 0;
}

/** Prints the turn script that replays the calls of a run's events file. */
function replayScript(eventsFile: string): number {
  const events = readFileSync(eventsFile, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l, i) => {
      const parsed = swarmEventSchema.safeParse(JSON.parse(l));
      if (!parsed.success)
        throw new UsageError(
          `${eventsFile}:${i + 1} is not a swarm event: ${parsed.error.issues[0]?.message ?? "invalid"}`,
        );
      return parsed.data;
    });
  process.stdout.write(JSON.stringify(scriptFromTrace(events), null, 2) + "\n");
  return 0;
}

async function main(argv: string[]): Promise<number> {
  try {
    const command = parseCommandLine(argv, process.cwd());
    switch (command.command) {
      case "help":
        process.stdout.write(`swarmboard ${extensionVersion}\n\n${usageText}`);
        return 0;
      case "version":
        process.stdout.write(`${extensionVersion}\n`);
        return 0;
      case "pull":
        return await pull(command);
      case "replay-script":
        return replayScript(command.events);
      case "run":
        return await run(command);
      case "mcp": {
        const model = command.model ?? process.env.SWARMBOARD_MODEL;
        return await runMcpServer({
          ...(model ? { modelPath: path.resolve(model) } : {}),
          workspace: path.resolve(command.workspace),
          stateRoot: path.resolve(
            command.stateRoot ?? path.join(path.dirname(path.resolve(command.workspace)), ".swarmboard-state", "mcp"),
          ),
          threads: command.threads,
          ...(command.kvCells ? { kvCells: command.kvCells } : {}),
          ...(command.script
            ? { script: turnScriptSchema.parse(JSON.parse(readFileSync(command.script, "utf8"))) }
            : {}),
          approveAsks: command.approveAsks,
          agentRules: !command.noAgentRules,
        });
      }
    }
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`swarmboard: ${error.message}\n\n${usageText}`);
      return exitCodes.usage;
    }
    process.stderr.write(`swarmboard: ${(error as Error).message}\n`);
    return exitCodes.failed;
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
