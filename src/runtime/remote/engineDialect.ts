// How a remote engine is spoken to. Two dialects share everything else (the checks' order, the stop rules, the
// outage waits): `llama-server`, llama.cpp's native API (token ids back, `timings.cache_n`), and `openai`, the
// OpenAI-compatible /v1/completions that vLLM, SGLang and llama-server all serve (text back, re-tokenized here;
// `usage.prompt_tokens_details.cached_tokens` where the engine fills it). Both take token ids as the prompt.
import type { Sampling } from "../../protocol/runtime";
import type { EngineHttp } from "./engineHttp";

export interface CompletionBody {
  readonly prompt: readonly number[];
  readonly maxTokens: number;
  readonly sampling?: Sampling;
  readonly gbnf?: string;
  readonly jsonSchema?: object;
}

/** One streamed event, whatever the dialect. */
export interface EngineChunk {
  /** Token ids, when the engine sends them. */
  readonly tokens?: readonly number[];
  /** Text, when it sends only text (the caller re-tokenizes). */
  readonly text?: string;
  /** The request's prompt: tokens the engine computed and (when it says) found in its cache. Sent once. */
  readonly prompt?: { readonly computed: number; readonly cached?: number };
  /** Why the generation ended, on the last event. */
  readonly end?: "eos" | "limit" | "other";
}

/** What the engine says about its context before any agent starts. */
export interface EngineContextFacts {
  /** Tokens one request may hold. */
  readonly slotCells: number;
  readonly slots: number;
}

export interface EngineDialect {
  readonly name: "llama-server" | "openai";
  contextFacts(http: EngineHttp, engineModel: string): Promise<EngineContextFacts>;
  /** The engine's tokens for `text`, or undefined when it has no tokenize endpoint. */
  tokenize(http: EngineHttp, engineModel: string, text: string): Promise<number[] | undefined>;
  stream(
    http: EngineHttp,
    engineModel: string,
    body: CompletionBody,
    signal?: AbortSignal,
  ): AsyncGenerator<EngineChunk>;
}
