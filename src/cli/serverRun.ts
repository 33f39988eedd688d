// `swarmboard run --server`: the same run, on the user's shared worker instead of in this process. The CLI checks
// its inputs as an in-process run does, asks the server to start the swarm (`swarm/start`, the way a window does),
// then shows its event stream on the terminal, answers its approvals unattended, carries stdin's steering lines
// to the server, and prints the same summary from the events when the swarm ends. The server writes the state dir's
// events.jsonl itself; --events is appended here as well.
import { appendFileSync, existsSync } from "node:fs";
import path from "node:path";
import { RpcError } from "../core/rpc/rpcPeer";
import { reduceSwarm, emptySwarm, type SwarmViewState } from "../core/swarmView";
import { addTaskMethod, answerQuestionMethod, pauseAgentMethod } from "../protocol/steering";
import type { SwarmEvent } from "../protocol/swarmEvents";
import {
  answerApprovalMethod,
  messageSwarmMethod,
  startSwarmMethod,
  stopSwarmMethod,
  swarmEventsNotification,
  type StartSwarmParams,
} from "../protocol/swarmRpc";
import { workerLogNotification } from "../protocol/workerRpc";
import { defaultPolicy } from "../worker/swarm/defaultPolicy";
import { UsageError } from "./flagParsing";
import { checkModelFile, checkNewStateDir, checkWorkspace, InputError } from "./inputChecks";
import type { RunOptions } from "./runArgs";
import { exitCodes, summaryText } from "./runSummary";
import { checkRunFiles, flagInputs, noModelHelp } from "./runInputs";
import { attachToServer } from "./serverAttach";
import type { ServerConnection } from "./serverConnection";
import { listenForSteering } from "./stdinMessages";
import { TerminalView } from "./terminalView";
import { fileTimeStamp } from "../core/stateDirNames";

/** What an in-process run takes that the server's start request does not carry (yet): refused with what to do. */
function refuseInProcessOnly(opts: RunOptions): void {
  const only = opts.resume
    ? "--resume"
    : opts.watch
      ? "swarmboard watch"
      : opts.thinkingTokens
        ? "--thinking-tokens"
        : "";
  if (only !== "")
    throw new UsageError(`${only} runs in this process only for now: leave --server out (or give --no-server).`);
}

/** The start request of the run, its inputs checked here as an in-process run checks them. */
export async function serverStartParams(opts: RunOptions, cwd: string): Promise<StartSwarmParams> {
  refuseInProcessOnly(opts);
  const files = await checkRunFiles(opts);
  const workspace = await checkWorkspace(opts.workspace ?? cwd);
  const model = opts.model ?? process.env.SWARMBOARD_MODEL;
  if (!model) throw new InputError(noModelHelp);
  const modelPath = await checkModelFile(model);
  // The server resolves a recipe file from its own folder: a relative one is made absolute here.
  const recipe = opts.recipe ?? "organization";
  const recipeFile = path.resolve(cwd, recipe);
  // The swarm's id is the server's to give: the default state dir is named by the time instead.
  const stateDir =
    opts.stateDir === undefined
      ? path.join(path.dirname(workspace), ".swarmboard-state", `${path.basename(workspace)}-${fileTimeStamp()}`)
      : await checkNewStateDir(opts.stateDir);
  const flags = Object.fromEntries(Object.entries(flagInputs(opts)).filter(([, v]) => v !== undefined));
  const { threads, agentRules, ...rest } = flags as Partial<StartSwarmParams>;
  return {
    ...rest,
    goal: opts.goal,
    recipe: recipe.endsWith(".json") && existsSync(recipeFile) ? recipeFile : recipe,
    modelPath,
    workspace,
    stateDir,
    threads: threads ?? 2,
    policy: defaultPolicy(),
    ...(agentRules === false ? { agentRules } : {}),
    ...(files.script ? { script: files.script } : {}),
  };
}

/** The swarm's events on this connection, held until its id is known (the first batch may beat the answer). */
class FollowedSwarm {
  readonly events: SwarmEvent[] = [];
  view: SwarmViewState | undefined;
  private readonly early: SwarmEvent[] = [];
  private swarmId: string | undefined;
  private ended!: (end: SwarmEvent & { type: "swarm-ended" }) => void;
  readonly end = new Promise<SwarmEvent & { type: "swarm-ended" }>((resolve) => (this.ended = resolve));

  constructor(private readonly take: (events: readonly SwarmEvent[]) => void) {}

  receive(swarmId: string, batch: readonly SwarmEvent[]): void {
    if (this.swarmId === undefined) this.early.push(...batch);
    else if (swarmId === this.swarmId) this.apply(batch);
  }

  started(swarmId: string): void {
    this.swarmId = swarmId;
    this.view = emptySwarm(swarmId, Date.now());
    this.apply(this.early.splice(0).filter((e) => e.swarmId === swarmId));
  }

  private apply(batch: readonly SwarmEvent[]): void {
    if (batch.length === 0) return;
    this.events.push(...batch);
    for (const e of batch) this.view = reduceSwarm(this.view!, e);
    this.take(batch);
    const end = batch.find((e) => e.type === "swarm-ended");
    if (end?.type === "swarm-ended") this.ended(end);
  }
}

/** Stdin's steering lines, each a request to the server for this swarm. */
function steerOnServer(connection: ServerConnection, swarmId: string): () => void {
  const { peer } = connection;
  return listenForSteering(
    process.stdin,
    {
      message: async (to, text) => ({ id: (await peer.request(messageSwarmMethod, { swarmId, to, text })).messageId }),
      pauseAgent: (agentId, paused) => peer.request(pauseAgentMethod, { swarmId, agentId, paused }),
      addTask: async (text) => ({ id: (await peer.request(addTaskMethod, { swarmId, text })).taskId }),
      answer: async (questionId, text) =>
        (await peer.request(answerQuestionMethod, { swarmId, questionId, text })).known,
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

export async function runThroughServer(opts: RunOptions, cwd: string): Promise<number> {
  const params = await serverStartParams(opts, cwd);
  const eventsFile = opts.events === undefined ? path.join(params.stateDir, "events.jsonl") : path.resolve(opts.events);
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
    const launch = { ...params, launchedBy: "cli" as const };
    const { swarmId } = await connection.peer.request(startSwarmMethod, launch).catch(asInputError);
    swarm.started(swarmId);
    process.stdout.write(`swarm ${swarmId}: state dir ${params.stateDir} (on the server, ${connection.socketPath})\n`);
    const stopListening = steerOnServer(connection, swarmId);
    const stopSignals = stopOnSignal(connection, swarmId);
    const end = await Promise.race([swarm.end, closed]);
    stopListening();
    stopSignals();
    if (end === "closed") {
      process.stderr.write(
        `swarmboard: the server closed before swarm ${swarmId} ended; it is interrupted. Continue it with ` +
          `\`swarmboard run --resume --state-dir ${params.stateDir}\`.\n`,
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
