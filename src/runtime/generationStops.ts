// When one generation ends, the same for every engine: the request's checks, how generated tokens are spelled,
// and the stop conditions checked after each token (a stop string, the token budget, an abort). The request's
// shape is the port's (port/engineShapes.ts). The local runtime checks them step by step as it decodes; the remote
// engine as tokens stream.
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { StopReason } from "../protocol/runtime";
import type { SwarmModel } from "./loadModel";
import type { GenerateRequest } from "./port/engineShapes";
import { GrowingSpelling } from "./growingSpelling";
import { SwarmRuntimeError } from "./runtimeErrors";

export interface Progress {
  tokens: Token[];
  sampledTokens: Token[];
  stopReason: StopReason;
  stopString?: string;
  textEnd?: number;
  /** the text so far, kept between tokens so that each step spells only the new ones */
  spelling?: GrowingSpelling;
}

export function checkRequest(request: GenerateRequest): void {
  if (!Number.isInteger(request.maxTokens) || request.maxTokens < 1) {
    throw new SwarmRuntimeError("invalid-request", `maxTokens must be a positive integer (got ${request.maxTokens}).`);
  }
  if (request.jsonSchema !== undefined && request.gbnf !== undefined) {
    throw new SwarmRuntimeError("invalid-request", "Give either jsonSchema or gbnf, not both.");
  }
  if ((request.jsonSchema !== undefined || request.gbnf !== undefined) && (request.forcedTokens?.length ?? 0) > 0) {
    throw new SwarmRuntimeError(
      "invalid-request",
      "forcedTokens and jsonSchema cannot be combined: a forced token would bypass the grammar's state.",
    );
  }
}

/**
 * The text of generated tokens. Free text is spelled with its special tokens, so that a model that closes its
 * thought or opens a call with the family's own control token (`</think>`, `[TOOL_CALLS]`) meets the stop.
 */
export function spell(model: SwarmModel, request: GenerateRequest, tokens: readonly Token[]): string {
  return request.dropStopText === true ? model.model.detokenize(tokens, true) : model.detokenize(tokens);
}

/** Decides whether the step that produced `token` ends the generation. */
export function afterToken(model: SwarmModel, request: GenerateRequest, progress: Progress): boolean {
  // The text is read only for stop strings and the stream; it grows a token at a time (growingSpelling.ts).
  if ((request.stop?.length ?? 0) > 0 || request.onText !== undefined) {
    progress.spelling ??= new GrowingSpelling((tokens) => spell(model, request, tokens));
    const text = progress.spelling.text(progress.tokens);
    for (const stop of request.stop ?? []) {
      const at = stop.length > 0 ? text.indexOf(stop) : -1;
      if (at >= 0) {
        Object.assign(progress, { stopReason: "stop", stopString: stop, textEnd: at });
        request.onText?.(text.slice(0, at), progress.tokens.length);
        return true;
      }
    }
    request.onText?.(text, progress.tokens.length);
  }
  if (progress.tokens.length >= request.maxTokens) return true;
  if (request.signal?.aborted === true) {
    progress.stopReason = "aborted";
    return true;
  }
  return false;
}
