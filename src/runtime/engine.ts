// The engine interface: everything the worker needs from a model, whoever computes it. Two engines implement it:
// `local` (swarmContext.ts: the patched node-llama-cpp runtime in this process, one unified KV pool, forks that
// copy no cell) and `remote` (remote/remoteContext.ts: an OpenAI-compatible serving engine such as llama-server,
// whose prefix cache plays the trunk's part). Both render prompts with the same model's chat wrapper (the remote
// engine loads the GGUF vocabulary-only), so both send the same tokens. The worker imports these types, never
// an engine's classes.
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { Disposable } from "../core/disposable";
import type { EngineStateEvent, GenerateResult, KvFullEvent, RuntimeMode, SwarmStats } from "../protocol/runtime";
import type { TrunkStateHeader } from "../protocol/trunkState";
import type { GenerateRequest } from "./generateOnSequence";
import type { SwarmModel } from "./loadModel";
import type { ReforkResult } from "./reforkSequence";
import type { SequencePositionCheck } from "./swarmContextOptions";
import type { TrunkReuse } from "./trunkReuse";
import type { TrunkRestore } from "./trunkStateFile";

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
  saveTrunk(file: string): Promise<TrunkStateHeader>;
  restoreTrunk(file: string, input: string | readonly Token[]): Promise<TrunkRestore>;
  /** A new agent named `id` sharing the trunk's (or `from`'s) prefix. */
  fork(id: string, options?: EngineForkOptions): Promise<EngineAgent>;
  /** Compaction: the agent starts again from the trunk under the same id, as the same object. */
  refork(agent: EngineAgent, options?: Pick<EngineForkOptions, "expectedTail">): Promise<ReforkResult>;
  onKvFull(listener: (event: KvFullEvent) => void): Disposable;
  /** The engine became unreachable (agents wait) or came back (agents go on). */
  onEngineState(listener: (event: EngineStateEvent) => void): Disposable;
  stats(): SwarmStats;
  /** Each live sequence's cells beside the engine's own positions (empty where the engine does not say). */
  checkPositions(): SequencePositionCheck[];
  dispose(): Promise<void>;
}
