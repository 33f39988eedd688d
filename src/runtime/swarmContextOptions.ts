// The options of a swarm context and of one fork, and llama.cpp's view of a sequence beside the ledger's:
// the shapes callers pass in and read back, apart from the context that does the work.
import type { AgentRole, SwarmAgent } from "./swarmAgent";

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
}

export interface ForkOptions {
  /** Fork from this agent's current state instead of the trunk's. */
  from?: SwarmAgent;
  /** Cells the new agent is expected to need for its own tokens; the fork is refused if they are not free. */
  expectedTail?: number;
  role?: AgentRole;
}

/** llama.cpp's own view of one sequence next to the ledger's. */
export interface SequencePositionCheck {
  id: string;
  ledgerCells: number;
  llamaMinPosition: number;
  llamaMaxPosition: number;
}
