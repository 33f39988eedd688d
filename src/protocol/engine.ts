// Which engine computes a swarm's tokens: `local` (the runtime in the worker, the default) or `remote` (an
// OpenAI-compatible serving engine with prefix caching; today llama.cpp's llama-server API). Crosses the host ->
// worker boundary in swarm/start, so it is parsed here. The API key travels only in memory: the host reads it
// from SecretStorage, the CLI from SWARMBOARD_ENGINE_API_KEY; it is never written to settings, records or logs.
import { z } from "zod";

export const remoteEngineSchema = z.object({
  kind: z.literal("remote"),
  /** The server's base URL, e.g. http://127.0.0.1:8080. */
  url: z.url({ protocol: /^https?$/, error: "expected an http:// or https:// URL of the serving engine" }),
  /** The model's name on the server; empty takes the one it serves (and says which). */
  model: z.string().default(""),
  /**
   * How to speak to it: llama-server's native API (token ids back, cached-token counts), the OpenAI-compatible
   * /v1/completions (vLLM, SGLang), or auto: llama-server's when the engine has its /props.
   */
  dialect: z.enum(["auto", "llama-server", "openai"]).default("auto"),
  apiKey: z.string().optional(),
  /** Longest wait for the first byte of a reply, in ms. */
  timeoutMs: z.number().int().min(100).default(600_000),
  /** Retries of a busy answer (429/503) before the request fails. */
  busyRetries: z.number().int().min(0).default(8),
});
export type RemoteEngineSettings = z.infer<typeof remoteEngineSchema>;

export const engineSettingsSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("local") }),
  remoteEngineSchema,
]);
export type EngineSettings = z.infer<typeof engineSettingsSchema>;

/** The settings without the key, for records, events and logs. */
export function withoutApiKey(settings: EngineSettings): EngineSettings {
  if (settings.kind === "local" || settings.apiKey === undefined) return settings;
  const { apiKey: _key, ...rest } = settings;
  return rest;
}
