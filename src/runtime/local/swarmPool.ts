// The pool: one llama.cpp context (one unified KV cache) that several swarms share. It holds what must be one for
// all of them: the cell ledger, the admission, the step barrier (so every generating agent of every swarm goes
// into the same `llama_decode`) and the generation meter. Each swarm on it is a tenant (swarmContext.ts) with its
// own trunk sequence, agents, figures and cap of cells; a tenant's sequence ids carry its prefix in the shared
// ledger, so two swarms may both have an "agent-1". The context goes when its last tenant goes.
import type { LlamaContext, Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { RuntimeMode } from "../../protocol/runtime";
import { SwarmRuntimeError } from "../runtimeErrors";
import type { SwarmModel } from "../loadModel";
import { commonPrefixLength } from "../trunkTokens";
import { CellLedger } from "./cellLedger";
import { GenerationMeter } from "./generationMeter";
import { KvAdmission } from "./kvAdmission";
import { StepBarrier } from "./stepBarrier";
import { checkContextOptions, llamaContextOptions, type PoolFacts } from "./swarmContextOptions";
import type { SwarmContextOptions } from "../port/engineShapes";
import type { SwarmSequence, SwarmShared } from "./swarmSequence";

/** A new context for swarms of `options`' shape (sequences for `options.swarms` of them). */
export async function createSwarmPool(model: SwarmModel, options: SwarmContextOptions): Promise<SwarmPool> {
  checkContextOptions(options);
  const cost = model.kvCellCost(options.kvCacheType);
  const shared = options.unified !== false && (await model.supportsSharedCells());
  const headSize = Math.min(model.facts.keyHeadDim, model.facts.valueHeadDim);
  const context = await model.model.createContext(llamaContextOptions(options, shared, cost, model.threads, headSize));
  const facts: PoolFacts = {
    cost,
    placement: await model.placement(),
    poolOrigin: options.poolOrigin,
    poolSwarms: options.poolSwarms ?? 1,
  };
  return new SwarmPool(model, context, facts);
}

/** What a tenant lends the pool: its trunk, to fork a new tenant's shared start from. */
export interface PoolTenant {
  /** The trunk's decoded tokens (what a fork of it can copy). */
  decodedTrunk(): readonly Token[];
  /** What the tenant holds, to say so to a launch that does not fit beside it. */
  readonly holding: {
    readonly label: string;
    /** Cells it wrote or has in flight. */
    readonly cells: number;
    /** Cells promised to its agents at fork and not written yet. */
    readonly promised: number;
    /** What is left of its cap beyond those (0 without a cap). */
    readonly unspentCap: number;
    readonly seats: number;
  };
  /** Runs `work` on the tenant's trunk, between its own forks (refused while the trunk is busy). */
  lendTrunk<T>(work: (trunk: SwarmSequence) => Promise<T>): Promise<T>;
}

/** The pool's shared parts, without the tenant's own kv-full listener. */
export type PoolParts = Omit<SwarmShared, "emitKvFull">;

export class SwarmPool {
  readonly mode: RuntimeMode;
  readonly parts: PoolParts;
  private readonly tenants = new Map<PoolTenant, number>();
  private nextTenant = 1;
  private disposed = false;

  constructor(
    readonly model: SwarmModel,
    readonly context: LlamaContext,
    readonly facts: PoolFacts,
  ) {
    this.mode = context.kvUnified ? "shared-cells" : "copy-mode";
    const ledger = new CellLedger(this.mode);
    this.parts = {
      model,
      context,
      ledger,
      admission: new KvAdmission(ledger, context.getAllocatedContextSize(), context.contextSize),
      barrier: new StepBarrier(context.batchSize),
      meter: new GenerationMeter(() => context.decodeDispatchStats),
    };
  }

  get poolCells(): number {
    return this.parts.admission.poolCells;
  }

  /** llama.cpp sequences no tenant holds a seat for. */
  get freeSequences(): number {
    let held = 0;
    for (const seats of this.tenants.values()) held += seats;
    return this.context.totalSequences - held;
  }

  get tenantCount(): number {
    return this.tenants.size;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /**
   * A prefix for a new tenant holding `seats` sequences (its agents, trunk and synthesist); refused when the
   * context has not that many left. The first tenant's prefix is empty: a lone swarm's ids are as they always were.
   */
  admit(seats: number): string {
    if (this.disposed) throw new SwarmRuntimeError("context-disposed", "This pool was disposed; open a new one.");
    if (seats > this.freeSequences)
      throw new SwarmRuntimeError(
        "no-sequence-left",
        `The pool has ${this.freeSequences} of ${this.context.totalSequences} sequences free; a swarm of this ` +
          `shape needs ${seats}. Wait for a running swarm to end.`,
      );
    const n = this.nextTenant++;
    return n === 1 ? "" : `s${n}:`;
  }

  join(tenant: PoolTenant, seats: number): void {
    this.tenants.set(tenant, seats);
  }

  /** The live tenant (other than `except`) whose decoded trunk shares the longest start with `tokens`. */
  bestTrunkSource(tokens: readonly Token[], except?: PoolTenant): { tenant: PoolTenant; shared: number } | undefined {
    let best: { tenant: PoolTenant; shared: number } | undefined;
    for (const tenant of this.tenants.keys()) {
      if (tenant === except) continue;
      const shared = commonPrefixLength(tenant.decodedTrunk(), tokens);
      if (shared > 0 && (best === undefined || shared > best.shared)) best = { tenant, shared };
    }
    return best;
  }

  /** Cells a swarm joining now could be given: free, not promised to an agent, not kept for another's cap. */
  roomForAnother(): number {
    const { admission } = this.parts;
    let kept = 0;
    for (const held of this.holdings()) kept += held.unspentCap;
    return Math.max(0, admission.freeCells() - admission.outstanding() - kept);
  }

  /** What each live tenant holds (a launch that does not fit is told). */
  holdings(): PoolTenant["holding"][] {
    return [...this.tenants.keys()].map((tenant) => tenant.holding);
  }

  /** A tenant leaves; the context is disposed with the last one. */
  async leave(tenant: PoolTenant): Promise<void> {
    this.tenants.delete(tenant);
    if (this.tenants.size > 0 || this.disposed) return;
    this.disposed = true;
    await this.context.dispose();
  }
}
