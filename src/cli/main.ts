// `swarmboard`: the headless runner on the same engine as the extension's worker. `run` drives a swarm
// on a git workspace and ends with a summary and an exit code that says how it ended.
import { appendFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { extensionVersion } from "../protocol/buildInfo";
import { swarmEventSchema, type SwarmEvent } from "../protocol/swarmEvents";
import { scriptFromTrace } from "../core/traceScript";
import { turnScriptSchema } from "../protocol/turnScript";
import { formatZodIssues } from "../protocol/zodIssues";
import { parseCommandLine, UsageError, type RunOptions } from "./args";
import { usageText } from "./usageText";
import { TerminalView, budgetLine } from "./terminalView";
import type { SwarmSummary } from "../worker/swarmSession";
import { startSwarm } from "../worker/startSwarm";
import { defaultPolicyRules } from "../worker/defaultPolicy";
import { unattendedApprover } from "../worker/approvalModes";
import { pullCommand, pullListCommand } from "./modelCommands";
import { recordSwarmEnd } from "../worker/swarmRecords";
import { InputError } from "./inputChecks";
import { prepareRun } from "./runInputs";
import { cleanUpCommand, listCommand } from "./historyCommands";
import { memoryCommand } from "./memoryCommands";
import { runMcpServer } from "./mcpServer";
import { evalCommand } from "./evalCommand";
import { listenForSteering } from "./stdinMessages";
import { standingOptions, takeTrigger } from "./watchInputs";
import { defaultAskUserTimeoutSeconds } from "../protocol/steering";

/** Exit codes: how a run ended. */
export const exitCodes = { completed: 0, failed: 1, usage: 2, budget: 3, stopped: 4 } as const;

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

async function run(opts: RunOptions): Promise<number> {
  const prepared = await prepareRun(opts, process.cwd());
  for (const w of prepared.warnings) process.stderr.write(`warning: ${w}\n`);
  const { recorded } = prepared;
  const eventsFile = path.resolve(opts.events ?? path.join(recorded.stateDir, "events.jsonl"));
  const view = new TerminalView(process.stdout, process.stdout.isTTY === true && !opts.plain);
  const all: SwarmEvent[] = [];
  const { session, summary: finished } = startSwarm({
    options: {
      swarmId: recorded.swarmId,
      goal: prepared.goal,
      recipe: prepared.recipe,
      ...(prepared.agents ? { agents: prepared.agents } : {}),
      modelPath: prepared.modelPath,
      workspace: prepared.workspace,
      stateDir: recorded.stateDir,
      threads: prepared.threads,
      ...(prepared.kvCells ? { kvCells: prepared.kvCells } : {}),
      ...(prepared.gpu ? { gpu: prepared.gpu } : {}),
      ...(prepared.kvCacheType ? { kvCacheType: prepared.kvCacheType } : {}),
      ...(prepared.engine ? { engine: prepared.engine } : {}),
      ...(prepared.checkedEngine ? { checkedEngine: prepared.checkedEngine } : {}),
      ...(prepared.budgetMs ? { budgetMs: prepared.budgetMs } : {}),
      ...(prepared.sparseCheckoutAboveMiB !== undefined
        ? { sparseCheckoutAboveMiB: prepared.sparseCheckoutAboveMiB }
        : {}),
      ...(opts.thinkingTokens ? { thinkingTokens: opts.thinkingTokens } : {}),
      ...(opts.script ? { script: turnScriptSchema.parse(JSON.parse(readFileSync(opts.script, "utf8"))) } : {}),
      resume: prepared.resume,
      agentRules: !opts.noAgentRules,
      policy: defaultPolicyRules,
      // Nobody at a terminal (stdin piped or closed): agents' questions are told at once that nobody answers.
      askUserTimeoutSeconds: opts.askUserTimeout ?? (process.stdin.isTTY ? defaultAskUserTimeoutSeconds : 0),
      ...(opts.watch ? { standing: standingOptions(opts.watch) } : {}),
    },
    approver: () => unattendedApprover(opts.approveAsks),
    deliver: (batch) => {
      appendFileSync(eventsFile, batch.map((e) => JSON.stringify(e)).join("\n") + "\n");
      all.push(...batch);
      view.onEvents(batch);
    },
    batchMs: 200,
  });
  // `on`, not `once`: node-llama-cpp's signal-exit re-raises the signal when it finds itself the only listener,
  // which would kill the run before it stops and records its end.
  // A second Ctrl-C leaves at once (the board's log is durable; --resume picks the swarm up).
  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(exitCodes.stopped);
    stopping = true;
    session.stop();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  const stopListening = listenForSteering(
    process.stdin,
    {
      message: (to, text) => session.message(to, text),
      pauseAgent: (agentId, paused) => session.steering.pauseAgent(agentId, paused),
      addTask: (text) => session.steering.addTask(text, Date.now()),
      answer: (questionId, text) => session.steering.answer(questionId, text),
      ...(session.standing ? { trigger: (raw: unknown) => takeTrigger(session.standing!, raw) } : {}),
    },
    (line) => process.stderr.write(`${line}\n`),
  );
  process.stdout.write(`swarm ${recorded.swarmId}: state dir ${recorded.stateDir}\n`);
  if (prepared.poolLine !== undefined) process.stdout.write(`${prepared.poolLine}\n`);
  const summary = await finished.catch(async (error: Error) => {
    stopListening();
    await recordSwarmEnd(recorded, error);
    throw error;
  });
  stopListening();
  await recordSwarmEnd(recorded, summary);
  process.stdout.write(summaryText(summary, all, eventsFile) + "\n");
  return exitCodes[summary.outcome];
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
          `${eventsFile}:${i + 1} is not a swarm event: ${formatZodIssues(parsed.error, "(event)")}`,
        );
      return parsed.data;
    });
  process.stdout.write(JSON.stringify(scriptFromTrace(events), null, 2) + "\n");
  return 0;
}

async function main(argv: string[]): Promise<number> {
  try {
    if (argv[0] === "memory") return await memoryCommand(argv.slice(1), process.cwd());
    const command = parseCommandLine(argv);
    switch (command.command) {
      case "help":
        process.stdout.write(`swarmboard ${extensionVersion}\n\n${usageText}`);
        return 0;
      case "version":
        process.stdout.write(`${extensionVersion}\n`);
        return 0;
      case "pull":
        return await pullCommand(command);
      case "pull-list":
        return pullListCommand(command);
      case "replay-script":
        return replayScript(command.events);
      case "run":
        return await run(command);
      case "eval":
        return await evalCommand(command);
      case "list":
        return await listCommand(command, process.cwd());
      case "clean-up":
        return await cleanUpCommand(command, process.cwd());
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
          ...(command.gpu ? { gpu: command.gpu } : {}),
          ...(command.kvCacheType ? { kvCacheType: command.kvCacheType } : {}),
          ...(command.script
            ? { script: turnScriptSchema.parse(JSON.parse(readFileSync(command.script, "utf8"))) }
            : {}),
          approveAsks: command.approveAsks,
          agentRules: !command.noAgentRules,
        });
      }
    }
  } catch (error) {
    if (error instanceof InputError) {
      process.stderr.write(`swarmboard: ${error.message}\n`);
      return exitCodes.usage;
    }
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
