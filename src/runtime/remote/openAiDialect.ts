// The `openai` dialect: /v1/completions as vLLM, SGLang and llama-server serve it. The prompt is token ids (the
// OpenAI API takes an array of integers), so the engine reads exactly what the local chat wrapper rendered; the
// reply is text, which the caller re-tokenizes. Grammars and JSON schemas go in each engine's own field: `grammar`
// and `json_schema` (llama-server), `guided_grammar` and `guided_json` (vLLM), `ebnf` (SGLang); an engine ignores
// the others. The usage event (stream_options.include_usage) says the prompt's size and, where the engine fills
// prompt_tokens_details, how much of it was cached. Tested here against llama-server's /v1/completions only.
import { z } from "zod";
import type { CompletionBody, EngineChunk, EngineDialect } from "./engineDialect";
import { modelsSchema } from "./llamaServerApi";
import { RemoteEngineError } from "./remoteErrors";

const usageSchema = z.looseObject({
  prompt_tokens: z.number().int().nonnegative(),
  prompt_tokens_details: z.looseObject({ cached_tokens: z.number().int().nonnegative().optional() }).nullish(),
});

const chunkSchema = z.looseObject({
  choices: z.array(z.looseObject({ text: z.string().optional(), finish_reason: z.string().nullish() })).optional(),
  usage: usageSchema.nullish(),
});

function requestOf(engineModel: string, body: CompletionBody): object {
  const sampling = body.sampling ?? {};
  return {
    model: engineModel,
    prompt: body.prompt,
    max_tokens: body.maxTokens,
    stream: true,
    stream_options: { include_usage: true },
    temperature: sampling.temperature ?? 0,
    ...(sampling.topK === undefined ? {} : { top_k: sampling.topK }),
    ...(sampling.topP === undefined ? {} : { top_p: sampling.topP }),
    ...(sampling.seed === undefined ? {} : { seed: sampling.seed }),
    ...(body.gbnf === undefined ? {} : { grammar: body.gbnf, guided_grammar: body.gbnf, ebnf: body.gbnf }),
    ...(body.jsonSchema === undefined ? {} : { json_schema: body.jsonSchema, guided_json: body.jsonSchema }),
  };
}

export const openAiDialect: EngineDialect = {
  name: "openai",
  async contextFacts(http, engineModel) {
    const entry = (await http.getJson("/v1/models", modelsSchema)).data.find((model) => model.id === engineModel);
    const slotCells = entry?.max_model_len ?? entry?.meta?.n_ctx ?? undefined;
    if (slotCells === undefined) {
      throw new RemoteEngineError(
        "engine-bad-reply",
        http.url,
        `${http.url}/v1/models does not say ${engineModel}'s context length (max_model_len); Swarmboard needs it to ` +
          "size the agents' share. Serve the model with an explicit context length.",
      );
    }
    return { slotCells, slots: 1 };
  },
  async tokenize(http, engineModel, text) {
    const reply = z.looseObject({ tokens: z.array(z.number().int()) });
    // vLLM's /tokenize takes {model, prompt}; llama-server's takes {content}; SGLang has none.
    return http
      .postJson("/tokenize", { model: engineModel, prompt: text, content: text, add_special_tokens: false }, reply)
      .then((r) => r.tokens)
      .catch((error: unknown) => {
        if (error instanceof RemoteEngineError && error.code === "engine-no-completions") return undefined;
        throw error;
      });
  },
  async *stream(http, engineModel, body, signal): AsyncGenerator<EngineChunk> {
    for await (const chunk of http.postStream("/v1/completions", requestOf(engineModel, body), chunkSchema, signal)) {
      const choice = chunk.choices?.[0];
      const usage = chunk.usage;
      const cached = usage?.prompt_tokens_details?.cached_tokens;
      const prompt =
        usage === undefined || usage === null
          ? undefined
          : { computed: usage.prompt_tokens - (cached ?? 0), ...(cached === undefined ? {} : { cached }) };
      const reason = choice?.finish_reason;
      const end = reason === "length" ? "limit" : reason === "stop" ? "eos" : reason ? "other" : undefined;
      yield { ...(choice?.text ? { text: choice.text } : {}), ...(prompt ? { prompt } : {}), ...(end ? { end } : {}) };
    }
  },
};
