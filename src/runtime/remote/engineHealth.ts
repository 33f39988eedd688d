// The checks a remote engine passes before any agent starts, each failure a clear error that says what to do:
// it answers (/health), it serves the model asked for (/v1/models), it speaks a completion dialect Swarmboard
// knows (llama-server's /props, else OpenAI's /v1/completions), its tokenizer is the local vocabulary's (both
// sides must mean the same tokens), and it honours a grammar (a request constrained to one word must produce that
// word: an engine that ignores grammars would let malformed tool calls through).
import { z } from "zod";
import type { RemoteEngineSettings } from "../../protocol/engine";
import type { SwarmModel } from "../loadModel";
import type { EngineContextFacts, EngineDialect } from "./engineDialect";
import type { EngineHttp } from "./engineHttp";
import { llamaServerDialect, modelsSchema, propsSchema } from "./llamaServerApi";
import { openAiDialect } from "./openAiDialect";
import { RemoteEngineError } from "./remoteErrors";

export interface EngineHealth extends EngineContextFacts {
  /** The engine's name for the model it serves. */
  readonly engineModel: string;
  readonly dialect: EngineDialect;
  /** Checks that could not run on this engine (no tokenize endpoint), in words. */
  readonly notes: readonly string[];
}

const grammarProbe = { word: "swarmboard", gbnf: 'root ::= "swarmboard"' };

async function reachable(http: EngineHttp): Promise<void> {
  try {
    await http.getJson("/health", z.unknown());
  } catch (error) {
    if (!(error instanceof RemoteEngineError)) throw error;
    if (error.code === "engine-no-completions") return; // no /health: the next checks will tell
    if (error.code !== "engine-unreachable") throw error;
    throw new RemoteEngineError(
      "engine-unreachable",
      http.url,
      `${error.message} Start the server (e.g. llama-server -m <model.gguf> --port 8080 -np 8 -c 32768) or fix ` +
        "swarmboard.engineUrl (--engine-url).",
      error,
    );
  }
}

async function servedModel(http: EngineHttp, asked: string): Promise<string> {
  const served = (await http.getJson("/v1/models", modelsSchema)).data.map((entry) => entry.id);
  if (asked === "") {
    if (served.length === 0)
      throw new RemoteEngineError("engine-wrong-model", http.url, `${http.url} serves no model.`);
    return served[0]!;
  }
  if (!served.includes(asked)) {
    throw new RemoteEngineError(
      "engine-wrong-model",
      http.url,
      `${http.url} does not serve a model named "${asked}"; it serves ${served.map((id) => `"${id}"`).join(", ")}. ` +
        "Set swarmboard.engineModel (--engine-model) to one of them, or leave it empty.",
    );
  }
  return asked;
}

/** The asked-for dialect, or on `auto` llama-server's when the engine has its /props. */
async function dialectOf(http: EngineHttp, asked: RemoteEngineSettings["dialect"]): Promise<EngineDialect> {
  if (asked === "llama-server") return llamaServerDialect;
  if (asked === "openai") return openAiDialect;
  const props = await http.getJson("/props", propsSchema).then(
    () => true,
    (error: unknown) => {
      if (error instanceof RemoteEngineError && ["engine-no-completions", "engine-bad-reply"].includes(error.code))
        return false;
      throw error;
    },
  );
  return props ? llamaServerDialect : openAiDialect;
}

async function sameVocabulary(http: EngineHttp, health: Omit<EngineHealth, "notes">, model: SwarmModel) {
  const probe = "Swarmboard checks the tokenizer: déjà vu, 12345, <tag>\n\tdone.";
  const remote = await health.dialect.tokenize(http, health.engineModel, probe);
  if (remote === undefined) return `${http.url} has no tokenize endpoint: its vocabulary was not compared`;
  const local = model.tokenize(probe);
  if (remote.length !== local.length || remote.some((token, at) => token !== local[at])) {
    throw new RemoteEngineError(
      "engine-vocabulary-mismatch",
      http.url,
      `The engine at ${http.url} tokenizes text differently from ${model.facts.path} ` +
        `(${remote.length} tokens there, ${local.length} here): it serves another model. Point swarmboard.modelPath ` +
        "at the same GGUF file the server runs (Swarmboard loads only its vocabulary).",
    );
  }
  return undefined;
}

async function honoursGrammar(http: EngineHttp, health: Omit<EngineHealth, "notes">, model: SwarmModel) {
  // Room for the word spelled one character per token (a tiny vocabulary); the grammar ends it when complete.
  const body = { prompt: model.tokenize("Say anything:"), maxTokens: 64, gbnf: grammarProbe.gbnf };
  const tokens: number[] = [];
  let text = "";
  for await (const chunk of health.dialect.stream(http, health.engineModel, body)) {
    tokens.push(...(chunk.tokens ?? []));
    text += chunk.text ?? "";
  }
  const wrote =
    tokens.length > 0 ? model.detokenize(tokens as unknown as Parameters<SwarmModel["detokenize"]>[0]) : text;
  if (wrote.trim() !== grammarProbe.word) {
    throw new RemoteEngineError(
      "engine-no-grammar",
      http.url,
      `The engine at ${http.url} ignored a grammar (asked for "${grammarProbe.word}", it wrote ` +
        `${JSON.stringify(wrote.slice(0, 60))}). Agents' tool calls need constrained decoding: run llama-server, ` +
        "or turn the engine's grammar / structured-output backend on.",
    );
  }
}

/** Checks the engine named by `settings` before any agent starts. */
export async function checkEngine(
  http: EngineHttp,
  model: SwarmModel,
  settings: RemoteEngineSettings,
): Promise<EngineHealth> {
  await reachable(http);
  const engineModel = await servedModel(http, settings.model);
  const dialect = await dialectOf(http, settings.dialect);
  const facts = await dialect.contextFacts(http, engineModel);
  const health = { engineModel, dialect, ...facts };
  const vocabulary = await sameVocabulary(http, health, model);
  await honoursGrammar(http, health, model);
  return { ...health, notes: vocabulary === undefined ? [] : [vocabulary] };
}
