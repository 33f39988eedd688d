// The engine port: everything the worker needs from a model, whoever computes it. Two engines implement it:
// `local` (local/swarmContext.ts: the patched node-llama-cpp runtime in this process, one unified KV pool, forks
// that copy no cell) and `remote` (remote/remoteContext.ts: an OpenAI-compatible serving engine such as
// llama-server, whose prefix cache plays the trunk's part). Both render prompts with the same model's chat wrapper
// (the remote engine loads the GGUF vocabulary-only), so both send the same tokens. What differs between them (how
// a trunk is put on the engine and kept after a swarm, what a context holds) is a method here that each implements,
// so no caller asks which engine it has. The worker imports this folder, the factory (engines.ts), the owner
// (runtimeOwner.ts) and the model services (modelServices.ts), never an engine's files (eslint-rules/runtimeSeal.mjs).
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { Disposable } from "../../core/disposable";
import type { EngineSettings } from "../../protocol/engine";
import type { EngineStateEvent, GenerateResult, KvFullEvent, RuntimeMode, SwarmStats } from "../../protocol/runtime";
import type {
  GenerateRequest,
  PoolSize,
  ReforkResult,
  SequencePositionCheck,
  SwarmContextOptions,
  SwarmModel,
  TrunkRequest,
  TrunkReuse,
} from "./engineShapes";

export type AgentRole = "agent" | "synthesist";

/** One agent: a fork of the trunk (or of another agent) that reads, generates and is released on its own. */
export interface EngineAgent {
  readonly id: string;
  readonly role: AgentRole;
  /** The agent (or "trunk") this one was forked from, the trunk after a compaction. */
  readonly parentId: string;
  /** True after a `kv-full` stop, until the agent generates again. */
  readonly paused: boolean;
  readonly released: boolean;
  /** The agent's whole context: the trunk it was forked from, then its own tokens. */
  readonly tokens: Token[];
  /** Cells the engine could give this agent now, without touching what others are promised. */
  room(): number;
  /** Reads text or tokens into the agent's context (a tool result, a message). */
  append(input: string | readonly Token[]): Promise<void>;
  /** Generates up to `maxTokens`; a full cache is a `kv-full` stop, not an error. */
  generate(request: GenerateRequest): Promise<GenerateResult>;
  /** Frees what only this agent holds. */
  release(): Promise<void>;
}

export interface EngineForkOptions {
  /** Fork from this agent's current state instead of the trunk's. */
  from?: EngineAgent;
  /** Cells the new agent is expected to need for its own tokens; the fork is refused if they are not free. */
  expectedTail?: number;
  role?: AgentRole;
}

/** One swarm's context on an engine: the trunk, decoded (or cached) once, and the agents forked from it. */
export interface EngineContext {
  readonly mode: RuntimeMode;
  readonly model: SwarmModel;
  /** Cells one swarm may use: the local pool, or the engine's context per request. */
  readonly poolCells: number;
  readonly liveAgents: readonly EngineAgent[];
  /** Everything the trunk holds. */
  readonly trunkTokens: Token[];
  appendToTrunk(input: string | readonly Token[]): Promise<void>;
  /** A new swarm's trunk on a kept context: only what differs is decoded. */
  replaceTrunk(input: string | readonly Token[]): Promise<TrunkReuse>;
  /** A new agent named `id` sharing the trunk's (or `from`'s) prefix. */
  fork(id: string, options?: EngineForkOptions): Promise<EngineAgent>;
  /** Compaction: the agent starts again from the trunk under the same id, as the same object. */
  refork(agent: EngineAgent, options?: Pick<EngineForkOptions, "expectedTail">): Promise<ReforkResult>;
  onKvFull(listener: (event: KvFullEvent) => void): Disposable;
  /** The engine became unreachable (agents wait) or came back (agents go on). */
  onEngineState(listener: (event: EngineStateEvent) => void): Disposable;
  stats(): SwarmStats;
  /**
   * Each live sequence's cells beside the engine's own positions: llama.cpp's for the local engine; for a remote
   * one, the positions its next request sends (0 to the agent's length - 1).
   */
  checkPositions(): SequencePositionCheck[];
  dispose(): Promise<void>;
}

/** A swarm's context with its trunk in place, and how much of a kept trunk it reused. */
export interface OpenedTrunk {
  readonly context: EngineContext;
  readonly trunkReuse?: TrunkReuse;
}

/** An opened engine: the model it renders with, and the contexts it creates, keeps and disposes. */
export interface SwarmEngine {
  /** Which engine this is, to say so; what differs between engines is in the methods below, never a branch on it. */
  readonly kind: EngineSettings["kind"];
  readonly model: SwarmModel;
  /** The remote engine's checked facts (absent for the local one): what it serves and how, as its check found. */
  readonly remote?: RemoteEngineFacts;
  createContext(options: SwarmContextOptions): Promise<EngineContext>;
  /**
   * A context holding `tokens` as its trunk. Local: the context kept from the last swarm when it has this shape
   * (only what differs is decoded), else a new one sized by `sizePool`, restored from the state file when one
   * checks out, else decoded. Remote: a context whose trunk is sent once, so the engine's prefix cache holds it.
   */
  openTrunk(tokens: readonly Token[], request: TrunkRequest, sizePool: () => Promise<PoolSize>): Promise<OpenedTrunk>;
  /**
   * After a swarm (its agents released): the local engine saves the trunk to the state file when one is asked for
   * and hands the context to the runtime's owner for the next swarm; a remote engine disposes it.
   */
  keepTrunk(context: EngineContext, request: TrunkRequest): Promise<void>;
  /** Disposes the contexts this engine created and still holds (a kept one belongs to the owner by then). */
  dispose(): Promise<void>;
}

/** What a remote engine's check found: its model, its context per request, its dialect. */
export interface RemoteEngineFacts {
  readonly url: string;
  readonly dialect: string;
  readonly engineModel: string;
  readonly slotCells: number;
  readonly slots: number;
  /** Checks that could not run on this engine (no tokenize endpoint), in words. */
  readonly notes: readonly string[];
}
