// `swarmboard run` and `swarmboard watch`: a swarm driven headless on a git workspace, its events traced to a
// JSON-lines file and shown on the terminal, ending with a summary and an exit code that says how it ended.
import { appendFileSync } from "node:fs";
import path from "node:path";
import type { SwarmEvent } from "../protocol/swarmEvents";
import type { RunOptions } from "./args";
import { TerminalView } from "./terminalView";
import { exitCodes, summaryText } from "./runSummary";
import type { SwarmSummary } from "../worker/swarm/swarmSession";
import { startLaunch } from "../worker/swarmLauncher";
import { unattendedApprover } from "../worker/approvalModes";
import { recordSwarmEnd } from "../worker/swarmRecords";
import { prepareRun } from "./runInputs";
import { listenForSteering } from "./stdinMessages";
import { takeTrigger } from "./watchInputs";
import { runThroughServer } from "./serverRun";

export { exitCodes } from "./runSummary";

function agentLinesOf(summary: SwarmSummary): string[] {
  return summary.agents.map(
    (a) =>
      `${a.branch ?? "(no branch)"}  ${a.id} ${a.end.outcome}: ${a.end.reason} (${a.end.steps} steps, ${a.end.tokens} tokens)`,
  );
}

export async function runCommand(opts: RunOptions): Promise<number> {
  if (opts.server) return runThroughServer(opts, process.cwd());
  const prepared = await prepareRun(opts, process.cwd());
  const { launch } = prepared;
  for (const w of launch.warnings) process.stderr.write(`warning: ${w}\n`);
  const { recorded } = launch;
  const eventsFile = prepared.eventsFile ?? path.join(recorded.stateDir, "events.jsonl");
  const view = new TerminalView(process.stdout, process.stdout.isTTY === true && !opts.plain);
  const all: SwarmEvent[] = [];
  const { session, summary: finished } = startLaunch(launch, {
    // The watch's trigger stream and rules are the CLI's alone (the saved inputs keep only that it stands, and its
    // poll, which a resume keeps unless --poll-ms is given again).
    options: {
      ...(opts.thinkingTokens ? { thinkingTokens: opts.thinkingTokens } : {}),
      ...(prepared.standing ? { standing: { ...launch.inputs.standing, ...prepared.standing } } : {}),
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
  const { triggers } = session.schedule;
  const stopListening = listenForSteering(
    process.stdin,
    {
      message: (to, text) => session.message(to, text),
      pauseAgent: (agentId, paused) => session.steering.pauseAgent(agentId, paused),
      addTask: (text) => session.steering.addTask(text, Date.now()),
      answer: (questionId, text) => session.steering.answer(questionId, text),
      ...(triggers ? { trigger: (raw: unknown) => takeTrigger(triggers, raw) } : {}),
    },
    (line) => process.stderr.write(`${line}\n`),
  );
  process.stdout.write(`swarm ${recorded.swarmId}: state dir ${recorded.stateDir}\n`);
  if (launch.measured !== undefined) process.stdout.write(`${launch.measured}\n`);
  const summary = await finished.catch(async (error: Error) => {
    stopListening();
    await recordSwarmEnd(recorded, error);
    throw error;
  });
  stopListening();
  await recordSwarmEnd(recorded, summary);
  process.stdout.write(summaryText(summary, agentLinesOf(summary), all, eventsFile) + "\n");
  return exitCodes[summary.outcome];
}
