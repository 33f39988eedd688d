// What the budget shows of one swarm context, counted from its present trunk: a context kept for the next swarm
// starts its dispatch counts and step times again at that swarm's trunk, as a new context would; the worker's own
// memory is sampled beside the pool (workerMemory.ts).
import type { LlamaContext } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { RuntimeMode, SwarmStats } from "../../protocol/runtime";
import type { PoolFacts } from "./swarmContextOptions";
import type { SwarmShared } from "./swarmSequence";
import { buildSwarmStats } from "./swarmStats";
import { WorkerMemoryMeter } from "./workerMemory";

export class SwarmFigures {
  /** Dispatch counts when the present trunk was put in place. */
  private dispatchBase = { dispatches: 0, tokens: 0 };
  /** The worker's memory beyond weights and KV, for the budget. */
  private readonly memory: WorkerMemoryMeter;

  constructor(
    private readonly mode: RuntimeMode,
    private readonly context: LlamaContext,
    private readonly shared: SwarmShared,
    private readonly pool: PoolFacts,
  ) {
    const modelPath = shared.model.facts.path;
    this.memory = new WorkerMemoryMeter(modelPath, pool.placement, shared.admission.poolCells * pool.cost.bytesPerCell);
  }

  /**
   * A new swarm's trunk: its figures (dispatches, step time) start here, as on a new context. The step meter is the
   * pool's, so it starts again only when no other swarm shares it (their agents may be generating).
   */
  restart(aloneOnPool: boolean): void {
    this.dispatchBase = { ...this.context.decodeDispatchStats };
    if (aloneOnPool) this.shared.meter.reset();
  }

  /** Reads the fixed part of the worker's memory; only meaningful with no agent live. */
  readFixedMemory(): void {
    this.memory.read(0);
  }

  read(trunkId: string, agents: ReadonlyArray<{ id: string; paused: boolean }>): SwarmStats {
    const now = this.context.decodeDispatchStats;
    return buildSwarmStats({
      mode: this.mode,
      ledger: this.shared.ledger,
      admission: this.shared.admission,
      meter: this.shared.meter,
      dispatch: {
        dispatches: now.dispatches - this.dispatchBase.dispatches,
        tokens: now.tokens - this.dispatchBase.tokens,
      },
      pool: this.pool,
      trunkId,
      agents,
      memory: this.memory.read(agents.length),
    });
  }
}
