// One agent's generation: sample, check the stop conditions, take a cell for the next token, wait for the
// other generating agents (one dispatch per step), decode. node-llama-cpp's `evaluate` generator samples and
// accepts a replacement token for each step, which is how forced tokens go through the real decode path.
import type { LlamaGrammarEvaluationState, Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { GenerateResult } from "../../protocol/runtime";
import { grammarForGbnf, grammarForJsonSchema } from "./jsonSchemaGrammar";
import { loadNodeLlamaCpp } from "../nodeLlamaCpp";
import { SwarmRuntimeError } from "../runtimeErrors";
import { afterToken, checkRequest, spell, type Progress } from "../generationStops";
import type { GenerateRequest } from "../port/engineShapes";
import { dropStopText } from "./dropStopText";
import { stepUntilFits } from "./steppedDecode";
import type { SwarmSequence } from "./swarmSequence";

async function grammarState(
  slot: SwarmSequence,
  request: GenerateRequest,
): Promise<LlamaGrammarEvaluationState | undefined> {
  const { jsonSchema, gbnf } = request;
  if (jsonSchema === undefined && gbnf === undefined) return undefined;
  const grammar =
    jsonSchema !== undefined
      ? await grammarForJsonSchema(slot.shared.model, jsonSchema)
      : await grammarForGbnf(slot.shared.model, gbnf!);
  const { LlamaGrammarEvaluationState: State } = await loadNodeLlamaCpp();
  return new State({ model: slot.shared.model.model, grammar });
}

/** Takes the cells the next decode needs, or pauses the agent with a `kv-full` event. */
function takeCells(slot: SwarmSequence, count: number, progress: Progress): boolean {
  const { admission } = slot.shared;
  if (admission.tryTake(slot.id, count)) return true;
  const available = admission.availableFor(slot.id);
  progress.stopReason = "kv-full";
  slot.paused = true;
  slot.shared.emitKvFull({
    code: "kv-full",
    agentId: slot.id,
    neededCells: count,
    availableCells: available,
    message:
      `${slot.id} is paused: its next ${count === 1 ? "token needs a KV cell" : `${count} tokens need KV cells`} ` +
      `and ${available} are free for it. ${admission.fullAdvice(slot.id)}`,
  });
  return false;
}

type StepGenerator = AsyncGenerator<Token, void, Token | Token[] | void>;

/** node-llama-cpp's step generator, opened on the first step with what is left of the input then. */
interface StepGenerators {
  open(first: readonly Token[]): StepGenerator;
  current: StepGenerator | undefined;
}

/** The sampler settings and grammar for node-llama-cpp's `evaluate`. */
async function evaluateOptions(slot: SwarmSequence, request: GenerateRequest) {
  const sampling = request.sampling ?? {};
  return {
    temperature: sampling.temperature ?? 0,
    topK: sampling.topK,
    topP: sampling.topP,
    seed: sampling.seed,
    grammarEvaluationState: await grammarState(slot, request),
    // EOG tokens are handled here, so that a forced token can override a sampled end of sequence.
    yieldEogToken: true,
  };
}

/** Decodes step by step until a stop condition, in lockstep with the other generating agents. */
async function runSteps(
  slot: SwarmSequence,
  request: GenerateRequest,
  steps: StepGenerators,
  input: Token[],
  progress: Progress,
) {
  const { model, meter, admission } = slot.shared;
  const forced = request.forcedTokens ?? [];
  let feed: readonly Token[] = input;
  while (takeCells(slot, feed.length, progress)) {
    // A long prompt goes in the chunks the steps grant it, beside the other agents' rows (steppedDecode.ts).
    const now = await stepUntilFits(slot, feed);
    // The generator is given the first step's input when it is created; later steps pass the token to decode.
    const first = steps.current === undefined;
    const generator = (steps.current ??= steps.open(now));
    const step = await generator.next(first ? undefined : [...now]).catch((error: unknown) => {
      admission.giveBack(slot.id, now.length);
      throw error;
    });
    admission.commit(slot.id, now.length);
    const token = step.done === true ? undefined : (forced[progress.sampledTokens.length] ?? step.value);
    if (step.done !== true) progress.sampledTokens.push(step.value);
    if (token === undefined || model.model.isEogToken(token)) {
      progress.stopReason = "eos";
      return;
    }
    progress.tokens.push(token);
    meter.countTokens(1);
    if (afterToken(model, request, progress)) return;
    feed = [token];
  }
}

export async function generateOnSequence(slot: SwarmSequence, request: GenerateRequest): Promise<GenerateResult> {
  checkRequest(request);
  const input = [...slot.pending, ...(request.prompt === undefined ? [] : slot.tokenize(request.prompt))];
  if (input.length === 0) {
    throw new SwarmRuntimeError(
      "invalid-request",
      `${slot.id} has nothing to continue from: give a prompt or append text first.`,
    );
  }
  const { barrier, meter } = slot.shared;
  const progress: Progress = { tokens: [], sampledTokens: [], stopReason: "max-tokens" };
  slot.paused = false;
  const options = await evaluateOptions(slot, request);
  const steps: StepGenerators = {
    open: (first) => slot.sequence.evaluate([...first], options),
    current: undefined,
  };
  barrier.join();
  meter.begin();
  try {
    await runSteps(slot, request, steps, input, progress);
  } finally {
    barrier.leave();
    meter.end();
    await steps.current?.return(undefined);
  }
  // What the agent said but has not decoded yet: its last token, or everything when no cell was ever free.
  const nothingDecoded = progress.stopReason === "kv-full" && progress.sampledTokens.length === 0;
  const last = progress.tokens.at(-1);
  slot.pending = nothingDecoded ? input : progress.stopReason === "eos" || last === undefined ? [] : [last];
  const text = spell(slot.shared.model, request, progress.tokens);
  const dropStop = request.dropStopText === true && progress.textEnd !== undefined;
  // Whitespace right before a dropped stop belongs to the family's own prefix, which is read next.
  if (dropStop) progress.textEnd = text.slice(0, progress.textEnd).trimEnd().length;
  return {
    tokens: dropStop ? await dropStopText(slot, progress.tokens, progress.textEnd!) : progress.tokens,
    text: progress.textEnd === undefined ? text : text.slice(0, progress.textEnd),
    stopReason: progress.stopReason,
    ...(progress.stopString === undefined ? {} : { stopString: progress.stopString }),
    sampledTokens: progress.sampledTokens,
  };
}
