// One agent's generation on a remote engine. The prompt is the agent's whole context as token ids (the engine's
// prefix cache finds the trunk and the agent's earlier turns); tokens stream back and the same stop conditions
// as the local runtime's are checked on them (generationStops.ts), closing the stream when one matches, which
// ends the engine's work on it. Forced tokens (scripted runs) are taken as given and sent as prompt, so the
// engine computes them as it would have generated them. A lost connection waits for the engine and goes on.
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { GenerateResult, KvFullEvent } from "../../protocol/runtime";
import { afterToken, checkRequest, spell, type Progress } from "../generationStops";
import type { GenerateRequest } from "../port/engineShapes";
import type { SwarmModel } from "../loadModel";
import { keptBeforeStop } from "../keptBeforeStop";
import type { EngineHttp } from "./engineHttp";
import type { EngineOutage } from "./engineOutage";
import type { CompletionBody, EngineDialect } from "./engineDialect";
import { isConnectionLoss } from "./remoteErrors";
import type { RemoteCounters } from "./remoteStats";
import { readOnForUsage } from "./usageReadAhead";

/** What every agent of one remote context shares. */
export interface RemoteShared {
  readonly model: SwarmModel;
  readonly http: EngineHttp;
  readonly dialect: EngineDialect;
  /** The engine's name for its model. */
  readonly engineModel: string;
  /** Tokens one request may hold (the engine's context per slot). */
  readonly slotCells: number;
  readonly outage: EngineOutage;
  readonly counters: RemoteCounters;
  emitKvFull(event: KvFullEvent): void;
}

/** What the generation produced and what the agent's context holds afterwards. */
export interface RemoteGeneration {
  readonly result: GenerateResult;
  readonly context: Token[];
}

function kvFull(shared: RemoteShared, agentId: string, used: number, progress: Progress): void {
  progress.stopReason = "kv-full";
  const available = Math.max(0, shared.slotCells - used);
  shared.emitKvFull({
    code: "kv-full",
    agentId,
    neededCells: 1,
    availableCells: available,
    message:
      `${agentId} is paused: its context holds ${used} tokens and the engine's context per request is ` +
      `${shared.slotCells}. Start the server with a larger context (llama-server -c), or lower the agents' share.`,
  });
}

/** Takes forced tokens as generated; true when a stop condition ended the generation among them. */
function takeForced(
  shared: RemoteShared,
  agentId: string,
  input: Token[],
  request: GenerateRequest,
  progress: Progress,
) {
  for (const token of request.forcedTokens ?? []) {
    if (shared.model.model.isEogToken(token)) {
      progress.stopReason = "eos";
      return true;
    }
    if (input.length + progress.tokens.length + 1 > shared.slotCells) {
      kvFull(shared, agentId, input.length + progress.tokens.length, progress);
      return true;
    }
    progress.tokens.push(token);
    progress.sampledTokens.push(token);
    if (afterToken(shared.model, request, progress)) return true;
  }
  return false;
}

/** The body of one completion request for the rest of this generation. */
function bodyOf(input: Token[], request: GenerateRequest, progress: Progress): CompletionBody {
  return {
    prompt: [...input, ...progress.tokens],
    maxTokens: request.maxTokens - progress.tokens.length,
    ...(request.sampling ? { sampling: request.sampling } : {}),
    ...(request.gbnf === undefined ? {} : { gbnf: request.gbnf }),
    ...(request.jsonSchema === undefined ? {} : { jsonSchema: request.jsonSchema }),
  };
}

/** Reads one streamed completion into `progress`; true when the generation is over. */
async function streamOnce(
  shared: RemoteShared,
  agentId: string,
  input: Token[],
  request: GenerateRequest,
  progress: Progress,
) {
  const { model, http, counters, dialect, engineModel } = shared;
  const body = bodyOf(input, request, progress);
  const before = progress.tokens.length;
  let text = "";
  counters.requests++;
  const started = Date.now();
  const chunks = dialect.stream(http, engineModel, body, request.signal);
  let promptCounted = false;
  try {
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
      const chunk = next.value;
      if (chunk.prompt !== undefined) {
        counters.countPrompt(chunk.prompt);
        promptCounted = true;
      }
      if (chunk.tokens !== undefined && takeTokens(model, request, progress, chunk.tokens as Token[])) return true;
      if (chunk.text !== undefined) {
        text += chunk.text;
        // At its token budget the stream is read on to the engine's own end, whose event carries the usage.
        if (takeText(model, request, progress, before, text) && progress.stopReason !== "max-tokens") return true;
      }
      if (chunk.end !== undefined) {
        if (chunk.end === "eos") progress.stopReason = "eos";
        else if (body.prompt.length + progress.tokens.length - before + 1 >= shared.slotCells)
          kvFull(shared, agentId, input.length + progress.tokens.length, progress);
        return true;
      }
    }
    return true;
  } finally {
    counters.countGeneration(progress.tokens.length - before, Date.now() - started);
    // Left before the engine said what the prompt cost (a local stop, or an end event without the usage, which
    // some engines send in a last event of its own): read on for it in the background.
    if (!promptCounted) void readOnForUsage(chunks, counters);
    else await chunks.return(undefined).catch(() => undefined);
  }
}

/** Adds streamed token ids; true when one of them ends the generation. */
function takeTokens(
  model: SwarmModel,
  request: GenerateRequest,
  progress: Progress,
  tokens: readonly Token[],
): boolean {
  for (const token of tokens) {
    progress.sampledTokens.push(token);
    if (model.model.isEogToken(token)) {
      progress.stopReason = "eos";
      return true;
    }
    progress.tokens.push(token);
    if (afterToken(model, request, progress)) return true;
  }
  return false;
}

/**
 * Streamed text (the openai dialect): the generation's tokens are its text re-tokenized, special tokens included
 * (a family's `<tool_call>` comes back as that token), then the same stop checks run on them.
 */
function takeText(model: SwarmModel, request: GenerateRequest, progress: Progress, before: number, text: string) {
  const tokens = model.model.tokenize(text, true);
  progress.tokens.splice(before, progress.tokens.length - before, ...tokens);
  progress.sampledTokens.splice(before, progress.sampledTokens.length - before, ...tokens);
  return afterToken(model, request, progress);
}

/** Has the engine compute forced tokens (one generated token, discarded), so its cache holds them as well. */
async function prefill(shared: RemoteShared, tokens: readonly Token[], signal?: AbortSignal): Promise<void> {
  const { counters, dialect, http, engineModel } = shared;
  counters.requests++;
  for await (const chunk of dialect.stream(http, engineModel, { prompt: tokens, maxTokens: 1 }, signal)) {
    if (chunk.prompt !== undefined) counters.countPrompt(chunk.prompt);
  }
}

/** Runs `work` again after each lost connection, once the engine answers; aborted waits end it. */
async function untilDone(
  shared: RemoteShared,
  agentId: string,
  request: GenerateRequest,
  work: () => Promise<unknown>,
) {
  for (;;) {
    try {
      await work();
      return;
    } catch (error) {
      if (aborted(request)) return;
      if (!isConnectionLoss(error)) throw error;
      await shared.outage.untilBack(agentId, request.signal);
      if (aborted(request)) return;
    }
  }
}

function aborted(request: GenerateRequest): boolean {
  return request.signal?.aborted === true;
}

export async function generateRemote(
  shared: RemoteShared,
  agentId: string,
  context: readonly Token[],
  request: GenerateRequest,
): Promise<RemoteGeneration> {
  checkRequest(request);
  const { model } = shared;
  const input = [...context, ...(request.prompt === undefined ? [] : toTokens(model, request.prompt))];
  const progress: Progress = { tokens: [], sampledTokens: [], stopReason: "max-tokens" };
  const constrained = request.gbnf !== undefined || request.jsonSchema !== undefined;
  if (input.length + 1 > shared.slotCells) kvFull(shared, agentId, input.length, progress);
  else if (takeForced(shared, agentId, input, request, progress)) {
    await untilDone(shared, agentId, request, () => prefill(shared, [...input, ...progress.tokens], request.signal));
  } else if (progress.tokens.length < request.maxTokens) {
    const forced = progress.tokens.length;
    await untilDone(shared, agentId, request, () => {
      // A grammar starts over on a retry, so what an interrupted constrained request produced is dropped.
      if (constrained) Object.assign(progress, { tokens: progress.tokens.slice(0, forced), stopReason: "max-tokens" });
      return streamOnce(shared, agentId, input, request, progress);
    });
  }
  if (aborted(request) && progress.stopReason !== "stop") progress.stopReason = "aborted";
  return finish(model, request, input, progress);
}

function finish(model: SwarmModel, request: GenerateRequest, input: Token[], progress: Progress): RemoteGeneration {
  const text = spell(model, request, progress.tokens);
  const dropStop = request.dropStopText === true && progress.textEnd !== undefined;
  if (dropStop) progress.textEnd = text.slice(0, progress.textEnd).trimEnd().length;
  const tokens = dropStop ? keptBeforeStop(model, progress.tokens, progress.textEnd!).tokens : progress.tokens;
  return {
    context: [...input, ...tokens],
    result: {
      tokens,
      text: progress.textEnd === undefined ? text : text.slice(0, progress.textEnd),
      stopReason: progress.stopReason,
      ...(progress.stopString === undefined ? {} : { stopString: progress.stopString }),
      sampledTokens: progress.sampledTokens,
    },
  };
}

export function toTokens(model: SwarmModel, input: string | readonly Token[]): Token[] {
  return typeof input === "string" ? model.tokenize(input) : [...input];
}
