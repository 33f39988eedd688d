// The `llama-server` dialect: llama.cpp's native API. /completion takes token ids as the prompt (exactly the
// tokens the local chat wrapper rendered), a GBNF grammar or a JSON schema, and streams back token ids with
// `return_tokens`; with `timings_per_token` every event says how many prompt tokens came from the slot's cache
// (`timings.cache_n`) and how many it computed, so a stream closed at a stop string still counts. /props gives the
// context per slot, /tokenize the engine's tokens. Only the fields Swarmboard reads are parsed; the rest pass.
import { z } from "zod";
import type { CompletionBody, EngineChunk, EngineDialect } from "./engineDialect";

export const propsSchema = z.looseObject({
  default_generation_settings: z.looseObject({ n_ctx: z.number().int().positive() }),
  total_slots: z.number().int().positive().optional(),
});

export const modelsSchema = z.looseObject({
  data: z.array(
    z.looseObject({
      id: z.string(),
      /** vLLM's context length. */
      max_model_len: z.number().int().positive().optional(),
      /** llama-server's (its context per slot). */
      meta: z.looseObject({ n_ctx: z.number().int().positive().optional() }).nullish(),
    }),
  ),
});

const timingsSchema = z.looseObject({
  cache_n: z.number().int().nonnegative().optional(),
  prompt_n: z.number().int().nonnegative().optional(),
});

const completionChunkSchema = z.looseObject({
  tokens: z.array(z.number().int()).optional(),
  stop: z.boolean().optional(),
  stop_type: z.string().optional(),
  timings: timingsSchema.optional(),
});

const tokenizeReplySchema = z.looseObject({ tokens: z.array(z.number().int()) });

/** The /completion request: cached prompt, tokens back, stop strings checked by the caller on the tokens. */
export function completionRequest(body: CompletionBody): object {
  const sampling = body.sampling ?? {};
  return {
    prompt: body.prompt,
    n_predict: body.maxTokens,
    stream: true,
    return_tokens: true,
    timings_per_token: true,
    cache_prompt: true,
    temperature: sampling.temperature ?? 0,
    ...(sampling.topK === undefined ? {} : { top_k: sampling.topK }),
    ...(sampling.topP === undefined ? {} : { top_p: sampling.topP }),
    ...(sampling.seed === undefined ? {} : { seed: sampling.seed }),
    ...(body.gbnf === undefined ? {} : { grammar: body.gbnf }),
    ...(body.jsonSchema === undefined ? {} : { json_schema: body.jsonSchema }),
  };
}

export const llamaServerDialect: EngineDialect = {
  name: "llama-server",
  async contextFacts(http) {
    const props = await http.getJson("/props", propsSchema);
    return { slotCells: props.default_generation_settings.n_ctx, slots: props.total_slots ?? 1 };
  },
  async tokenize(http, _engineModel, text) {
    return (await http.postJson("/tokenize", { content: text }, tokenizeReplySchema)).tokens;
  },
  async *stream(http, _engineModel, body, signal): AsyncGenerator<EngineChunk> {
    let counted = false;
    for await (const chunk of http.postStream("/completion", completionRequest(body), completionChunkSchema, signal)) {
      const timings = chunk.timings;
      const prompt =
        !counted && timings?.prompt_n !== undefined
          ? { computed: timings.prompt_n, ...(timings.cache_n === undefined ? {} : { cached: timings.cache_n }) }
          : undefined;
      if (prompt !== undefined) counted = true;
      const end =
        chunk.stop === true
          ? chunk.stop_type === "eos"
            ? "eos"
            : chunk.stop_type === "limit"
              ? "limit"
              : "other"
          : undefined;
      yield {
        ...(chunk.tokens ? { tokens: chunk.tokens } : {}),
        ...(prompt ? { prompt } : {}),
        ...(end ? { end } : {}),
      };
    }
  },
};
