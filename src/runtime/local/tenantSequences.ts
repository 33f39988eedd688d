// One swarm's sequences on a pool (swarmPool.ts): the prefix its ids carry in the pool's ledger, its share of
// the cells (the cap it was launched with), and its kv-full listeners, which hear only its own agents by name.
import type { LlamaContext } from "node-llama-cpp" with { "resolution-mode": "import" };
import { toDisposable, type Disposable } from "../../core/disposable";
import type { KvFullEvent } from "../../protocol/runtime";
import { KvAdmissionError } from "../runtimeErrors";
import type { PoolShare } from "./kvAdmission";
import type { SwarmPool } from "./swarmPool";
import { SwarmSequence, type SwarmShared } from "./swarmSequence";

export class TenantSequences {
  readonly prefix: string;
  readonly shared: SwarmShared;
  /** The swarm's cap of cells; undefined: none beyond the pool. */
  readonly share: PoolShare | undefined;
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
    this.share = cellCap === undefined ? undefined : { cap: cellCap, ids: new Set() };
  }

  nameOf(key: string): string {
    return key.slice(this.prefix.length);
  }

  /** Cells the swarm wrote or has in flight (0 without a cap: nobody asks). */
  usedCells(): number {
    return this.share === undefined ? 0 : this.shared.admission.shareUsed(this.share);
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
    if (this.share !== undefined) this.shared.admission.joinShare(key, this.share);
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
