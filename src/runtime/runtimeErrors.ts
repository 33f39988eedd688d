// Typed runtime errors: each carries a stable code (it travels as `ErrorData.code`) and a message that says
// what happened and what to do about it.

export type ModelLoadErrorCode = "model-not-found" | "model-unreadable" | "model-corrupt";

export class ModelLoadError extends Error {
  override readonly name = "ModelLoadError";

  constructor(
    readonly code: ModelLoadErrorCode,
    readonly path: string,
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** The KV pool cannot take what was asked for (a fork's expected tail, an append, a token). */
export class KvAdmissionError extends Error {
  override readonly name = "KvAdmissionError";
  readonly code = "kv-full";

  constructor(
    message: string,
    readonly neededCells: number,
    readonly availableCells: number,
  ) {
    super(message);
  }
}

export type SwarmRuntimeErrorCode =
  | "no-sequence-left"
  | "agent-released"
  | "agent-busy"
  | "invalid-request"
  | "context-disposed"
  | "pool-full"
  /** A second model does not fit beside the ones loaded (modelRoom.ts). */
  | "memory-full";

/** A request the swarm context cannot serve in its present state. */
export class SwarmRuntimeError extends Error {
  override readonly name = "SwarmRuntimeError";

  constructor(
    readonly code: SwarmRuntimeErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** The asked-for KV cache type cannot store this model's cells (a quantised type needs whole blocks per head). */
export class KvCacheTypeError extends Error {
  override readonly name = "KvCacheTypeError";
  readonly code = "kv-type-unsupported";
  /** The person's input asks for what this model cannot store (a CLI exits 2). */
  readonly badInput = true;
}
