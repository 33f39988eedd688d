// llama.cpp's llama-server, as the remote engine speaks to it: its native /completion endpoint takes token ids
// as the prompt (so the prompt is exactly the tokens the local chat wrapper rendered), a GBNF grammar or a JSON
// schema, and streams back token ids with `return_tokens`; its final event says how many prompt tokens came
// from the slot's cache (`timings.cache_n`). Only the fields Swarmboard reads are parsed; the rest pass.
import { z } from "zod";
import type { Sampling } from "../../protocol/runtime";

export const propsSchema = z.looseObject({
  default_generation_settings: z.looseObject({ n_ctx: z.number().int().positive() }),
  total_slots: z.number().int().positive().optional(),
  model_path: z.string().optional(),
  model_alias: z.string().optional(),
});
export type EngineProps = z.infer<typeof propsSchema>;

export const modelsSchema = z.looseObject({
  data: z.array(z.looseObject({ id: z.string() })),
});

export const timingsSchema = z.looseObject({
  cache_n: z.number().int().nonnegative().optional(),
  prompt_n: z.number().int().nonnegative().optional(),
  predicted_n: z.number().int().nonnegative().optional(),
  predicted_ms: z.number().nonnegative().optional(),
});

/** One streamed event: some tokens, and on the last one why it stopped and the timings. */
export const completionChunkSchema = z.looseObject({
  content: z.string().optional(),
  tokens: z.array(z.number().int()).optional(),
  stop: z.boolean().optional(),
  stop_type: z.string().optional(),
  timings: timingsSchema.optional(),
});
export type CompletionChunk = z.infer<typeof completionChunkSchema>;

export interface CompletionBody {
  readonly prompt: readonly number[];
  readonly maxTokens: number;
  readonly sampling?: Sampling;
  readonly gbnf?: string;
  readonly jsonSchema?: object;
}

/** The /completion request: cached prompt, tokens back, stop strings checked by the caller on the tokens. */
export function completionRequest(body: CompletionBody): object {
  const sampling = body.sampling ?? {};
  return {
    prompt: body.prompt,
    n_predict: body.maxTokens,
    stream: true,
    return_tokens: true,
    // Every event carries the timings, so a stream closed at a stop string still says what was cached.
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
