// One swarm's sequences on a pool (swarmPool.ts): the prefix its ids carry in the pool's ledger, its share of
// the cells (the cap it was launched with), and its kv-full listeners, which hear only its own agents by name.
import type { LlamaContext } from "node-llama-cpp" with { "resolution-mode": "import" };
import { toDisposable, type Disposable } from "../../core/disposable";
import type { KvFullEvent, SwarmStats } from "../../protocol/runtime";
import type { SequencePositionCheck } from "../port/engineShapes";
import { shareFigures } from "./tenantTrunk";
import { KvAdmissionError } from "../runtimeErrors";
import type { PoolShare } from "./kvAdmission";
import type { SwarmPool } from "./swarmPool";
import { SwarmSequence, type SwarmShared } from "./swarmSequence";

export class TenantSequences {
  readonly prefix: string;
  readonly shared: SwarmShared;
  /** The swarm's sequences and cap of cells (infinite: none beyond the pool). */
  readonly share: PoolShare;
  private readonly kvFullListeners = new Set<(event: KvFullEvent) => void>();
  private readonly context: LlamaContext;

  /** Takes `seats` of the pool's sequences for the swarm (refused when it has not that many left). */
  constructor(host: SwarmPool, seats: number, cellCap: number | undefined) {
    this.prefix = host.admit(seats);
    this.context = host.context;
    this.shared = {
      ...host.parts,
      emitKvFull: (event) => {
        const own = { ...event, agentId: this.nameOf(event.agentId) };
        this.kvFullListeners.forEach((listener) => listener(own));
      },
    };
    this.share = { cap: cellCap ?? Number.POSITIVE_INFINITY, ids: new Set() };
  }

  nameOf(key: string): string {
    return key.slice(this.prefix.length);
  }

  /** Cells the swarm wrote or has in flight (a trunk start forked from another swarm's is not counted). */
  usedCells(): number {
    return this.shared.admission.shareUsed(this.share);
  }

  /** The swarm's figures with its agents by name, and its share of the pool when it has one. */
  named(stats: SwarmStats, swarms: number): SwarmStats {
    const agents = stats.agents.map((agent) => ({ ...agent, agentId: this.nameOf(agent.agentId) }));
    return { ...stats, agents, ...shareFigures(swarms, this.share, this.usedCells()) };
  }

  namedChecks(checks: SequencePositionCheck[]): SequencePositionCheck[] {
    return checks.map((check) => ({ ...check, id: this.nameOf(check.id) }));
  }

  /** Cells promised to the swarm's agents at fork and not written yet. */
  promisedCells(): number {
    return this.shared.admission.sharePromised(this.share);
  }

  /** The next swarm's cap on a kept context (infinite: none beyond the pool). */
  setCap(cellCap: number | undefined): void {
    this.share.cap = cellCap ?? Number.POSITIVE_INFINITY;
  }

  /** What is left of the swarm's cap: kept for it from a swarm that joins the pool later (0 without a cap). */
  unspentCap(): number {
    return Number.isFinite(this.share.cap) ? this.shared.admission.unspentShare(this.share) : 0;
  }

  onKvFull(listener: (event: KvFullEvent) => void): Disposable {
    this.kvFullListeners.add(listener);
    return toDisposable(() => this.kvFullListeners.delete(listener));
  }

  /** A new llama.cpp sequence under `key` (the prefix, then the name). */
  open(key: string): SwarmSequence {
    const name = this.nameOf(key);
    const refuseShift = (): never => {
      throw new KvAdmissionError(`${name} reached its sequence limit of ${this.context.contextSize} cells.`, 1, 0);
    };
    const sequence = this.context.getSequence({ contextShift: { strategy: refuseShift } });
    this.shared.admission.joinShare(key, this.share);
    return new SwarmSequence(key, sequence, this.shared, name);
  }

  /** A sequence of a swarm leaving a pool others stay on: its ledger entry, admission and llama.cpp cells go. */
  async drop(slot: SwarmSequence): Promise<void> {
    if (slot.released) return;
    slot.released = true;
    const { ledger, admission } = this.shared;
    if (ledger.has(slot.id)) ledger.remove(slot.id);
    admission.forget(slot.id);
    admission.leaveShare(slot.id);
    await slot.sequence.dispose();
  }
}
