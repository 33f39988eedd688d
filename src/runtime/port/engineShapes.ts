// The shapes the engine port passes in and reads back, the same for every engine: what a generation asks for, how
// a context is sized, what a kept trunk must match, and what a re-fork or a trunk reuse did. They live here, not in
// an engine's files, so that neither engine imports the other to speak the port.
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { KvCacheType, Sampling } from "../../protocol/runtime";
import type { SwarmModel } from "../loadModel";

// The model every engine renders with, and how it is loaded, are the shared runtime's (loadModel.ts); the port
// names them so that its users need no other file.
export type { GpuChoice } from "../gpuBackend";
export type { LoadSwarmModelOptions, SwarmModel } from "../loadModel";

export interface GenerateRequest {
  /** Most tokens to produce. */
  maxTokens: number;
  /** Text or tokens to read first (decoded in the same batch as the other agents' first step). */
  prompt?: string | readonly Token[];
  sampling?: Sampling;
  /** Generation ends when the text contains one of these; the result's text stops before it. */
  stop?: readonly string[];
  /** Constrains the output to JSON that fits this schema (e.g. `z.toJSONSchema(schema)`). */
  jsonSchema?: object;
  /** Constrains the output to a GBNF grammar (e.g. a choice among tool names); not with `jsonSchema`. */
  gbnf?: string;
  /** Tokens fed back instead of the sampled ones, step by step (deterministic runs); sampling goes on after. */
  forcedTokens?: readonly Token[];
  /**
   * Free text: when a stop string ends it, the tokens that spelled the stop are taken out of the agent's context
   * (src/runtime/local/dropStopText.ts), so what it reads next (the call prefix) follows the text itself.
   */
  dropStopText?: boolean;
  /** Called after each token with the text so far (up to a stop string, once one matched): live text. */
  onText?: (text: string, tokens: number) => void;
  signal?: AbortSignal;
}

export interface SwarmContextOptions {
  /** Most agents alive at once (the trunk and one synthesist come on top). */
  maxAgents: number;
  /** KV cells for the whole swarm; llama.cpp rounds up to a multiple of 256 (read `poolCells`). */
  kvCells: number;
  /** CPU threads for decoding (1 or 2 on a small machine). Defaults to the model's. */
  threads?: number;
  /** Ask for the unified pool (default true); it is granted only by the patched build. */
  unified?: boolean;
  /** Most tokens in one `llama_decode` (default 512). */
  batchSize?: number;
  /** Cells promised to each new agent for its own tokens when no `expectedTail` is given (default 64). */
  defaultExpectedTail?: number;
  /** The KV cache's element type (default: the model's, F16); a quantised one turns flash attention on. */
  kvCacheType?: KvCacheType;
  /** Where `kvCells` came from, in words (shown with the budget). */
  poolOrigin?: string;
  /**
   * How many swarms of this shape the context has sequences for (default 1): each takes maxAgents + 2 of
   * llama.cpp's sequences. Only a unified pool is shared; a split cache (copy mode) holds one swarm.
   */
  swarms?: number;
  /** The most cells this swarm may write and be promised on a pool it shares (absent: the whole pool). */
  cellCap?: number;
  /** How many swarms the pool was sized for (default 1): a swarm that joins without a cap gets a fair share. */
  poolSwarms?: number;
  /** What to call this swarm to a launch its pool has no room for (its id). */
  label?: string;
}

/** What a context kept from the last swarm must match to serve the next one. */
export interface TrunkShape {
  readonly model: SwarmModel;
  readonly maxAgents: number;
  readonly threads: number;
  readonly kvCacheType: KvCacheType | undefined;
  /** The launch's and the recipe's caps on the pool (undefined: sized from memory). */
  readonly caps: readonly (number | undefined)[];
  /** Swarms its pool is sized for (undefined: 1): a kept context sized for fewer is not handed to this one. */
  readonly poolSwarms?: number;
}

/** A swarm's trunk, to be put on an engine (SwarmEngine.openTrunk) and kept after it (SwarmEngine.keepTrunk). */
export interface TrunkRequest {
  readonly shape: TrunkShape;
  /** Where the trunk's state is saved and restored across processes; undefined: never. */
  readonly stateFile: string | undefined;
  /** The most cells this swarm may take of a pool other swarms use (undefined: a fair share, core/poolShares.ts). */
  readonly cellCap?: number;
  /** How many swarms a pool this swarm creates is sized for (default 1). */
  readonly poolSwarms?: number;
  /** The swarm's id, to name it to a launch its pool has no room for. */
  readonly swarmId?: string;
}

/** The pool a new context gets: its cells and, in words, where that number came from. */
export interface PoolSize {
  readonly cells: number;
  readonly origin: string;
}

/** How much of a new trunk a kept context already held. */
export interface TrunkReuse {
  /** Tokens of the new trunk that were already decoded and kept. */
  readonly reusedTokens: number;
  /** Tokens decoded for it now (the last token stays pending, as always). */
  readonly decodedTokens: number;
}

/** An engine's own view of one sequence next to the ledger's. */
export interface SequencePositionCheck {
  id: string;
  ledgerCells: number;
  llamaMinPosition: number;
  llamaMaxPosition: number;
}

/** What a compaction by re-fork did: the cells it released and the engine's view of the new sequence. */
export interface ReforkResult {
  /** Cells only the agent held, freed by the compaction. */
  releasedCells: number;
  /** The re-forked agent's sequence: the ledger beside the engine, read right after the fork. */
  positions: SequencePositionCheck;
}
