// HTTP to a remote serving engine, and nothing else may speak it (the layer rule keeps engine clients in
// src/runtime). JSON in and out, every reply parsed by its zod schema; a 429 or 503 (the engine is busy or
// loading) is retried with backoff, honouring Retry-After; a lost connection becomes `engine-unreachable` for
// the caller to wait on. The API key goes in the Authorization header only, never in a message or a log.
import type { z } from "zod";
import { formatZodIssues } from "../../protocol/zodIssues";
import { RemoteEngineError, isConnectionLoss } from "./remoteErrors";
import { sseData } from "./sseEvents";

export interface EngineHttpOptions {
  /** The engine's base URL, e.g. http://127.0.0.1:8080 (a trailing /v1 is the caller's business). */
  readonly url: string;
  readonly apiKey?: string;
  /** Longest wait for a reply's first byte; a streamed generation may then take as long as it needs. */
  readonly timeoutMs: number;
  /** Retries of a 429/503 before the error is given to the caller. */
  readonly busyRetries: number;
}

const retryStatuses = new Set([429, 503]);

export class EngineHttp {
  /** Requests retried after a 429/503. */
  retries = 0;

  constructor(readonly options: EngineHttpOptions) {}

  get url(): string {
    return this.options.url.replace(/\/+$/, "");
  }

  async getJson<T>(route: string, schema: z.ZodType<T>): Promise<T> {
    return this.parse(route, schema, await (await this.send(route, { method: "GET" })).json());
  }

  async postJson<T>(route: string, body: object, schema: z.ZodType<T>, signal?: AbortSignal): Promise<T> {
    const reply = await this.send(route, this.post(body, signal));
    return this.parse(route, schema, await reply.json());
  }

  /** A streamed reply's `data:` payloads, each parsed by `schema`. */
  async *postStream<T>(route: string, body: object, schema: z.ZodType<T>, signal?: AbortSignal): AsyncGenerator<T> {
    const reply = await this.send(route, this.post(body, signal));
    if (reply.body === null) throw this.badReply(route, "the reply has no body to stream");
    for await (const data of sseData(reply.body)) yield this.parse(route, schema, JSON.parse(data));
  }

  private post(body: object, signal?: AbortSignal): RequestInit {
    return { method: "POST", body: JSON.stringify(body), ...(signal ? { signal } : {}) };
  }

  private async send(route: string, init: RequestInit): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const reply = await this.fetchOnce(route, init);
      if (reply.ok) return reply;
      if (retryStatuses.has(reply.status) && attempt < this.options.busyRetries) {
        this.retries++;
        await reply.body?.cancel();
        await delay(retryDelayMs(reply.headers.get("retry-after"), attempt), init.signal ?? undefined);
        continue;
      }
      throw await this.refusal(route, reply);
    }
  }

  private async fetchOnce(route: string, init: RequestInit): Promise<Response> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    try {
      return await fetch(`${this.url}${route}`, { ...init, headers, signal });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      if (timeout.aborted || isConnectionLoss(error)) {
        const why = timeout.aborted ? `no reply within ${this.options.timeoutMs} ms` : describe(error);
        throw new RemoteEngineError(
          "engine-unreachable",
          this.url,
          `The engine at ${this.url} is unreachable (${why}).`,
          error,
        );
      }
      throw error;
    }
  }

  private async refusal(route: string, reply: Response): Promise<RemoteEngineError> {
    const text = (await reply.text().catch(() => "")).slice(0, 400);
    const code = reply.status === 404 || reply.status === 405 ? "engine-no-completions" : "engine-refused";
    const hint =
      reply.status === 401 || reply.status === 403
        ? " Check the API key (swarmboard: Set Engine API Key, or SWARMBOARD_ENGINE_API_KEY for the CLI)."
        : "";
    return new RemoteEngineError(code, this.url, `${this.url}${route} answered ${reply.status}: ${text}.${hint}`);
  }

  private parse<T>(route: string, schema: z.ZodType<T>, value: unknown): T {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw this.badReply(route, formatZodIssues(parsed.error));
    return parsed.data;
  }

  private badReply(route: string, why: string): RemoteEngineError {
    return new RemoteEngineError(
      "engine-bad-reply",
      this.url,
      `${this.url}${route} sent a reply Swarmboard cannot read: ${why}`,
    );
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/** Retry-After in seconds when the engine says it (capped at a minute), else 0.5 s, 1 s, 2 s, ... up to 8 s. */
export function retryDelayMs(retryAfter: string | null, attempt: number): number {
  const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds, 60) * 1000;
  return Math.min(500 * 2 ** attempt, 8000);
}

export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      resolve();
    }
  });
}
