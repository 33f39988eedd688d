// The checks a remote engine passes before any agent starts, each failure a clear error that says what to do:
// it answers (/health), it serves the model asked for (/v1/models), it speaks the completion API Swarmboard uses
// (/props and /completion), its tokenizer is the local vocabulary's (/tokenize: both engines must mean the same
// tokens), and it honours a grammar (a request constrained to one word must produce that word: an engine that
// ignores grammars would let malformed tool calls through).
import { z } from "zod";
import type { RemoteEngineSettings } from "../../protocol/engine";
import type { SwarmModel } from "../loadModel";
import type { EngineHttp } from "./engineHttp";
import { completionRequest, modelsSchema, propsSchema } from "./llamaServerApi";
import { RemoteEngineError } from "./remoteErrors";

export interface EngineHealth {
  /** The engine's name for the model it serves. */
  readonly engineModel: string;
  /** Tokens one request may hold. */
  readonly slotCells: number;
  readonly slots: number;
}

const grammarProbe = { word: "swarmboard", gbnf: 'root ::= "swarmboard"' };

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

async function sameVocabulary(http: EngineHttp, model: SwarmModel): Promise<void> {
  const probe = "Swarmboard checks the tokenizer: déjà vu, 12345, <tag>\n\tdone.";
  const remote = (await http.postJson("/tokenize", { content: probe }, z.looseObject({ tokens: z.array(z.number()) })))
    .tokens;
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
}

async function honoursGrammar(http: EngineHttp, model: SwarmModel): Promise<void> {
  const body = {
    ...completionRequest({ prompt: model.tokenize("Say anything:"), maxTokens: 8, gbnf: grammarProbe.gbnf }),
    stream: false,
  };
  const reply = await http.postJson("/completion", body, z.looseObject({ content: z.string() }));
  if (reply.content.trim() !== grammarProbe.word) {
    throw new RemoteEngineError(
      "engine-no-grammar",
      http.url,
      `The engine at ${http.url} ignored a grammar (asked for "${grammarProbe.word}", it wrote ` +
        `${JSON.stringify(reply.content.slice(0, 60))}). Agents' tool calls need constrained decoding: run llama-server, ` +
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
  try {
    await http.getJson("/health", z.unknown());
  } catch (error) {
    if (error instanceof RemoteEngineError && error.code === "engine-unreachable") {
      throw new RemoteEngineError(
        "engine-unreachable",
        http.url,
        `${error.message} Start the server (e.g. llama-server -m <model.gguf> --port 8080 -np 8 -c 32768) or fix ` +
          "swarmboard.engineUrl (--engine-url).",
        error,
      );
    }
    throw error;
  }
  const engineModel = await servedModel(http, settings.model);
  const props = await http.getJson("/props", propsSchema).catch((error: unknown) => {
    if (error instanceof RemoteEngineError && error.code === "engine-no-completions") {
      throw new RemoteEngineError(
        "engine-no-completions",
        http.url,
        `${http.url} has no /props: Swarmboard's remote engine speaks llama-server's completion API (token-id prompts, ` +
          "grammars, cached-token counts). Run llama-server, or put it in front of the model.",
        error,
      );
    }
    throw error;
  });
  await sameVocabulary(http, model);
  await honoursGrammar(http, model);
  return {
    engineModel,
    slotCells: props.default_generation_settings.n_ctx,
    slots: props.total_slots ?? 1,
  };
}
