// Typed errors of a remote serving engine: each says what happened, at which URL, and what to do. Their codes
// travel as `ErrorData.code` to the host and the CLI like the local runtime's.

export type RemoteEngineErrorCode =
  | "engine-unreachable"
  | "engine-wrong-model"
  | "engine-no-completions"
  | "engine-no-grammar"
  | "engine-refused"
  | "engine-bad-reply"
  | "engine-vocabulary-mismatch";

export class RemoteEngineError extends Error {
  override readonly name = "RemoteEngineError";

  constructor(
    readonly code: RemoteEngineErrorCode,
    readonly url: string,
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** A connection that failed or broke (refused, reset, DNS): the engine may come back, unlike a refusal. */
export function isConnectionLoss(error: unknown): boolean {
  if (error instanceof RemoteEngineError) return error.code === "engine-unreachable";
  const { name, cause } = error as { name?: string; cause?: { code?: string } };
  if (name === "AbortError") return false;
  const code = cause?.code ?? (error as { code?: string })?.code;
  const lost = ["ECONNREFUSED", "ECONNRESET", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_SOCKET", "ETIMEDOUT"];
  return (code !== undefined && lost.includes(code)) || (error as Error)?.message === "fetch failed";
}
