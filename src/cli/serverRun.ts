// `swarmboard run` and `watch` on the user's shared worker (the default; --no-server runs in this process). The CLI
// checks its inputs as an in-process run does, asks the server to start the swarm (`swarm/start`, the way a window
// does) or to resume it (`history/resume`, as a window's Resume), then shows its event stream on the terminal,
// answers its approvals unattended, carries stdin's steering lines (a watch's triggers too) to the server, and prints
// the same summary from the events when the swarm ends. The server writes the state dir's events.jsonl itself;
// --events is appended here as well.
import { appendFileSync } from "node:fs";
import path from "node:path";
import { RpcError } from "../core/rpc/rpcPeer";
import type { SwarmViewState } from "../core/swarmView";
import { addTaskMethod, answerQuestionMethod, pauseAgentMethod } from "../protocol/steering";
import { resumeSwarmMethod } from "../protocol/swarmHistoryRpc";
import {
  answerApprovalMethod,
  messageSwarmMethod,
  startSwarmMethod,
  stopSwarmMethod,
  swarmEventsNotification,
} from "../protocol/swarmRpc";
import { swarmTriggerMethod, triggerInputSchema } from "../protocol/triggers";
import { formatZodIssues } from "../protocol/zodIssues";
import { workerLogNotification } from "../protocol/workerRpc";
import { FollowedSwarm } from "./followedSwarm";
import { InputError } from "./inputChecks";
import type { RunOptions } from "./runArgs";
import { exitCodes, summaryText } from "./runSummary";
import { attachToServer } from "./serverAttach";
import type { ServerConnection } from "./serverConnection";
import { serverRequest, type ServerRequest } from "./serverRunParams";
import { listenForSteering } from "./stdinMessages";
import { TerminalView } from "./terminalView";
import { triggerSaid } from "./watchInputs";

/** Stdin's steering lines, each a request to the server for this swarm; a standing swarm's take triggers too. */
function steerOnServer(connection: ServerConnection, swarmId: string, standing: boolean): () => void {
  const { peer } = connection;
  return listenForSteering(
    process.stdin,
    {
      message: async (to, text) => ({ id: (await peer.request(messageSwarmMethod, { swarmId, to, text })).messageId }),
      pauseAgent: (agentId, paused) => peer.request(pauseAgentMethod, { swarmId, agentId, paused }),
      addTask: async (text) => ({ id: (await peer.request(addTaskMethod, { swarmId, text })).taskId }),
      answer: async (questionId, text) =>
        (await peer.request(answerQuestionMethod, { swarmId, questionId, text })).known,
      ...(standing
        ? {
            trigger: async (raw: unknown) => {
              // Said here as the inbox says it in process, rather than as a failed request.
              const parsed = triggerInputSchema.safeParse(raw);
              if (!parsed.success) throw new Error(`not a trigger: ${formatZodIssues(parsed.error, "(trigger)")}`);
              const taken = await peer.request(swarmTriggerMethod, { swarmId, trigger: parsed.data });
              return { triggerId: taken.triggerId, said: triggerSaid(taken) };
            },
          }
        : {}),
    },
    (line) => process.stderr.write(`${line}\n`),
  );
}

/**
 * Ctrl-C stops the swarm this run started, as an in-process run's does (the person asked this terminal for it; a
 * client that merely dies leaves its swarm running instead): a second Ctrl-C detaches, and the server finishes the stop.
 */
function stopOnSignal(connection: ServerConnection, swarmId: string): () => void {
  let stopping = false;
  const stop = () => {
    if (stopping) {
      process.stderr.write(`Detached; the server finishes stopping swarm ${swarmId} (swarmboard serve --status).\n`);
      process.exit(exitCodes.stopped);
    }
    stopping = true;
    process.stderr.write(
      `Stopping swarm ${swarmId} on the server: its agents stop at their next step and the synthesist fans in. ` +
        "Ctrl-C again detaches (the server finishes the stop).\n",
    );
    void connection.peer.request(stopSwarmMethod, { swarmId }).catch(() => undefined);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return () => {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  };
}

/** The launcher's refusals (a recipe, model or engine that will not do) are bad input, as in process (exit 2). */
const refusalCodes = new Set([
  "bad-recipe",
  "model-unreadable",
  "model-cannot-call-tools",
  "router-outside-standing",
  "engine-unready",
]);

function asInputError(error: unknown): never {
  if (error instanceof RpcError && refusalCodes.has(error.error.code)) throw new InputError(error.error.message);
  throw error;
}

function agentLinesOf(view: SwarmViewState | undefined): string[] {
  return (view?.agents ?? []).map(
    (a) => `${a.branch ?? "(no branch)"}  ${a.id} ${a.state}${a.reason ? `: ${a.reason}` : ""} (${a.tokens} tokens)`,
  );
}

/** Asks the server for the run's swarm: started, or resumed from its state dir; whether it stands (takes triggers). */
async function launchOnServer(
  connection: ServerConnection,
  request: ServerRequest,
): Promise<{ swarmId: string; standing: boolean }> {
  if (request.kind === "resume") return connection.peer.request(resumeSwarmMethod, request.params).catch(asInputError);
  const launch = { ...request.params, launchedBy: "cli" as const };
  const { swarmId } = await connection.peer.request(startSwarmMethod, launch).catch(asInputError);
  return { swarmId, standing: request.params.standing !== undefined };
}

export async function runThroughServer(opts: RunOptions, cwd: string): Promise<number> {
  const request = await serverRequest(opts, cwd);
  const { stateDir } = request;
  const eventsFile = opts.events === undefined ? path.join(stateDir, "events.jsonl") : path.resolve(opts.events);
  const view = new TerminalView(process.stdout, process.stdout.isTTY === true && !opts.plain);
  const connection = await attachToServer("cli", (line) => process.stderr.write(`${line}\n`));
  const swarm = new FollowedSwarm((batch) => {
    if (opts.events !== undefined) appendFileSync(eventsFile, batch.map((e) => JSON.stringify(e)).join("\n") + "\n");
    view.onEvents(batch);
    for (const e of batch)
      if (e.type === "approval-request") {
        const decision = opts.approveAsks ? "once" : "deny";
        process.stderr.write(`${e.agentId} asked to run \`${e.command}\`: ${decision} (unattended)\n`);
        void connection.peer.request(answerApprovalMethod, { swarmId: e.swarmId, requestId: e.requestId, decision });
      }
  });
  connection.peer.onNotification(swarmEventsNotification, ({ swarmId, events }) => swarm.receive(swarmId, events));
  connection.peer.onNotification(workerLogNotification, ({ level, message }) => {
    if (level !== "info") process.stderr.write(`server ${level}: ${message}\n`);
  });
  const closed = new Promise<"closed">((resolve) => connection.onClose(() => resolve("closed")));
  try {
    const { swarmId, standing } = await launchOnServer(connection, request);
    swarm.started(swarmId);
    const verb = request.kind === "resume" ? "resumed; " : "";
    process.stdout.write(`swarm ${swarmId}: ${verb}state dir ${stateDir} (on the server, ${connection.socketPath})\n`);
    const stopListening = steerOnServer(connection, swarmId, standing);
    const stopSignals = stopOnSignal(connection, swarmId);
    const end = await Promise.race([swarm.end, closed]);
    stopListening();
    stopSignals();
    if (end === "closed") {
      process.stderr.write(
        `swarmboard: the server closed before swarm ${swarmId} ended; it is interrupted. Continue it with ` +
          `\`swarmboard run --resume --state-dir ${stateDir}\`.\n`,
      );
      return exitCodes.failed;
    }
    const started = swarm.events.find((e) => e.type === "swarm-started");
    const integration = started?.type === "swarm-started" ? started.integrationBranch : undefined;
    const runEnd = {
      outcome: end.outcome,
      reason: end.reason,
      reportPath: end.reportPath ?? "(none)",
      integrationBranch: integration ?? "(none)",
    };
    process.stdout.write(summaryText(runEnd, agentLinesOf(swarm.view), swarm.events, eventsFile) + "\n");
    return exitCodes[end.outcome];
  } finally {
    connection.close();
  }
}
