// The swarm context: one llama.cpp context whose sequences are the trunk (sequence 0, the shared context,
// decoded once), the agents (forks of it) and one synthesist. In shared-cells mode all sequences draw from one
// unified KV pool, so a fork only adds an owner to the trunk's cells; in copy mode each fork copies them.
// The mode is read from the real context, never assumed. Several swarms may share one context (swarmPool.ts):
// each is a tenant with its own trunk sequence and agents, meeting the others at the pool's one step barrier.
import path from "node:path";
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import { toDisposable, type Disposable } from "../../core/disposable";
import { SerialQueue } from "../../core/serialQueue";
import type { EngineStateEvent, KvFullEvent, RuntimeMode, SwarmStats } from "../../protocol/runtime";
import { TenantSequences } from "./tenantSequences";
import type { SwarmModel } from "../loadModel";
import { SwarmRuntimeError } from "../runtimeErrors";
import { positionChecks } from "./sequenceInternals";
import { releaseSequence } from "./forkSequence";
import { ForkBatches, forkMany } from "./forkBatches";
import { createSwarmPool, type PoolTenant, type SwarmPool } from "./swarmPool";
import { forkSharedStart } from "./tenantTrunk";
import type { EngineAgent, EngineContext } from "../port/engine";
import type { ReforkResult, SequencePositionCheck, SwarmContextOptions, TrunkReuse } from "../port/engineShapes";
import { SwarmAgent } from "./swarmAgent";
import { positionCheck, reforkFromTrunk } from "./reforkSequence";
import { defaultExpectedTail, type ForkOptions } from "./swarmContextOptions";
import type { SwarmSequence } from "./swarmSequence";
import { SwarmFigures } from "./swarmFigures";
import { rewriteTrunk } from "./trunkReuse";
import { withTrunkBos } from "../trunkTokens";
import { restoreTrunkState, saveTrunkState, type TrunkRestore } from "./trunkStateFile";
import type { TrunkStateHeader } from "../../protocol/trunkState";

export const trunkId = "trunk";

interface AskedFork {
  readonly id: string;
  readonly options: ForkOptions;
}

/** A new pool (swarmPool.ts) with this swarm as its first tenant. */
export async function createSwarmContext(model: SwarmModel, options: SwarmContextOptions): Promise<SwarmContext> {
  return new SwarmContext(await createSwarmPool(model, options), options);
}

/** The local engine: one swarm on a llama.cpp context in this process (see ../port/engine.ts for the interface). */
export class SwarmContext implements EngineContext, PoolTenant {
  readonly mode: RuntimeMode;
  readonly model: SwarmModel;
  private readonly own: TenantSequences;
  private readonly trunk: SwarmSequence;
  private readonly agents = new Map<string, SwarmAgent>();
  /** Forks (and re-forks) run one at a time, so forking many agents at once from one parent does not find it busy. */
  private readonly forks = new SerialQueue();
  /** Forks of the trunk asked for together are made together, on the same queue (forkBatches.ts). */
  private readonly trunkForks = new ForkBatches<AskedFork, SwarmAgent>(this.forks, (a) =>
    this.forkBatch(this.trunk, a),
  );
  private disposed = false;
  /** What the budget shows, counted from the present trunk (a kept context counts from there). */
  private readonly figures: SwarmFigures;
  /** The swarm's name to a launch that does not fit beside it (the next swarm's on a kept context). */
  private label: string | undefined;

  /** A swarm on `host`: its first, or one more beside the others (refused when the pool has no sequences left). */
  constructor(
    readonly host: SwarmPool,
    private readonly options: SwarmContextOptions,
  ) {
    const seats = options.maxAgents + 2;
    this.own = new TenantSequences(host, seats, options.cellCap);
    this.label = options.label;
    ({ mode: this.mode, model: this.model } = host);
    this.trunk = this.own.open(this.own.prefix + trunkId);
    this.own.shared.ledger.addRoot(this.trunk.id);
    this.figures = new SwarmFigures(this.mode, host.context, this.own.shared, host.facts);
    host.join(this, seats);
  }

  get holding(): PoolTenant["holding"] {
    const label = this.label ?? `a swarm on ${path.basename(this.model.facts.path)}`;
    const { own } = this;
    const seats = this.options.maxAgents + 2;
    return { label, cells: own.usedCells(), promised: own.promisedCells(), unspentCap: own.unspentCap(), seats };
  }

  decodedTrunk(): readonly Token[] {
    return this.disposed || this.trunk.released ? [] : this.trunk.sequence.contextTokens;
  }

  /** Cells llama.cpp allocated for the whole context. */
  get poolCells(): number {
    return this.own.shared.admission.poolCells;
  }

  get liveAgents(): readonly SwarmAgent[] {
    return [...this.agents.values()];
  }

  /** Everything the trunk holds, decoded or pending. */
  get trunkTokens(): Token[] {
    return this.trunk.tokens;
  }

  /** Decodes text or tokens into the trunk once; agents forked afterwards share them. */
  appendToTrunk(input: string | readonly Token[]): Promise<void> {
    this.ensureOpen();
    return this.trunk.exclusive("append", async () => {
      const tokens = this.trunk.tokenize(input);
      await this.trunk.appendTokens(this.trunk.tokens.length === 0 ? withTrunkBos(this.model, tokens) : tokens);
    });
  }

  /**
   * This swarm's trunk on a pool other swarms use: the start it shares with the closest live trunk is forked from
   * that one (no decode), and only the rest is decoded. Alone on the pool, it is decoded whole (appendToTrunk).
   */
  shareTrunk(input: string | readonly Token[]): Promise<TrunkReuse> {
    this.ensureOpen();
    return this.trunk.exclusive("append", async () => {
      if (this.trunk.tokens.length > 0) throw new SwarmRuntimeError("invalid-request", "The trunk is not empty.");
      const tokens = withTrunkBos(this.model, this.trunk.tokenize(input));
      await forkSharedStart(this.host, this, this.trunk, tokens);
      return rewriteTrunk(this.trunk, tokens);
    });
  }

  /** Runs `work` on this swarm's trunk, between its forks (another swarm's trunk is forked from it). */
  lendTrunk<T>(work: (trunk: SwarmSequence) => Promise<T>): Promise<T> {
    return this.forks.run(async () => {
      this.ensureOpen();
      return this.trunk.exclusive("lend", () => work(this.trunk));
    });
  }

  /** Saves the trunk's cells to `file` (and `file`.kv) for a later process (trunkStateFile.ts). */
  saveTrunk(file: string): Promise<TrunkStateHeader> {
    this.ensureOpen();
    return this.trunk.exclusive("save", () => saveTrunkState(this.trunk, this.host.facts.cost.typeName, file));
  }

  /**
   * Restores a saved trunk into this empty one when its start matches `input`'s, keeps the shared start, and
   * decodes the rest; else a note and an empty trunk.
   */
  restoreTrunk(file: string, input: string | readonly Token[]): Promise<TrunkRestore> {
    this.ensureOpen();
    return this.trunk.exclusive("restore", async () => {
      const tokens = withTrunkBos(this.model, this.trunk.tokenize(input));
      const restore = await restoreTrunkState(this.trunk, this.host.facts.cost.typeName, file, tokens);
      if (!restore.restored) return restore;
      const kept = await rewriteTrunk(this.trunk, tokens);
      return { restored: true, restoredTokens: kept.reusedTokens };
    });
  }

  /** The next swarm on a kept context takes its own cap and name, not the last one's. */
  retune(next: { cellCap: number | undefined; label: string | undefined }): void {
    this.own.setCap(next.cellCap);
    this.label = next.label;
  }

  /** A new swarm's trunk on a kept context: decodes only what differs from the last (trunkReuse.ts). */
  replaceTrunk(input: string | readonly Token[]): Promise<TrunkReuse> {
    this.ensureOpen();
    if (this.agents.size > 0) throw new SwarmRuntimeError("invalid-request", "Release the agents before this.");
    // The new swarm's figures (dispatches, step time) start at its trunk, as on a new context.
    this.figures.restart(this.host.tenantCount === 1);
    return this.trunk.exclusive("replace", () =>
      rewriteTrunk(this.trunk, withTrunkBos(this.model, this.trunk.tokenize(input))),
    );
  }

  /**
   * A new agent named `id` sharing the trunk's (or `from`'s) cells: no decode, no new cells in shared-cells
   * mode. The caller names it (the swarm numbers its seats); an id already live is refused.
   */
  fork(id: string, options: ForkOptions = {}): Promise<SwarmAgent> {
    const { from } = options;
    if (from === undefined) return this.trunkForks.fork({ id, options });
    return this.forks.run(async () => {
      this.ensureOpen();
      const [made] = await this.forkBatch(this.slotOf(from), [{ id, options }]);
      if (made instanceof Error) throw made;
      return made!;
    });
  }

  /** Forks of `parent` asked for together, as one batch (forkBatches.ts): one error per fork that failed. */
  private async forkBatch(parent: SwarmSequence, asked: readonly AskedFork[]): Promise<Array<SwarmAgent | Error>> {
    this.ensureOpen();
    // The fixed part of the worker's memory is read with no agent live: before the first fork (and between stages).
    if (this.liveAgents.length === 0) this.figures.readFixedMemory();
    const forks = asked.map(({ id, options: o }) => ({ id, role: o.role ?? "agent", tail: this.expectedTail(o) }));
    const seats = { trunkId, maxAgents: this.options.maxAgents, live: this.liveAgents };
    return parent.exclusive("fork", async () => {
      const made = await forkMany(parent, forks, seats, this.own);
      return made.map((m) => {
        if (m instanceof Error) return m;
        const agent = new SwarmAgent(m.slot, m.role, parent.name, (released) => this.release(released));
        this.agents.set(agent.id, agent);
        return agent;
      });
    });
  }

  private expectedTail(options: Pick<ForkOptions, "expectedTail">): number {
    return options.expectedTail ?? this.options.defaultExpectedTail ?? defaultExpectedTail;
  }

  /**
   * Compaction by re-fork: releases `agent`'s cells and forks it again from the trunk under the same id, as the
   * same object (a free fork: no decode, no new cell). The caller then reads the agent's compact brief into it.
   */
  refork(agent: EngineAgent, options: Pick<ForkOptions, "expectedTail"> = {}): Promise<ReforkResult> {
    return this.forks.run(() => this.reforkNow(agent, options));
  }

  private async reforkNow(agent: EngineAgent, options: Pick<ForkOptions, "expectedTail">): Promise<ReforkResult> {
    this.ensureOpen();
    const old = this.slotOf(agent);
    const expectedTail = this.expectedTail(options);
    return old.exclusive("compact", () =>
      this.trunk.exclusive("fork", async () => {
        const open = (key: string) => this.own.open(key);
        const { slot, releasedCells } = await reforkFromTrunk(old, this.trunk, open, expectedTail);
        this.agents.get(agent.id)!.rebind(slot, trunkId);
        return { releasedCells, positions: positionCheck(slot) };
      }),
    );
  }

  /** Listens for agents paused because the pool is full. */
  onKvFull(listener: (event: KvFullEvent) => void): Disposable {
    return this.own.onKvFull(listener);
  }

  /** The local engine is in this process: it never goes away while the swarm runs. */
  onEngineState(_listener: (event: EngineStateEvent) => void): Disposable {
    return toDisposable(() => undefined);
  }

  stats(): SwarmStats {
    const agents = this.liveAgents.map((agent) => ({ id: agent.slot.id, paused: agent.paused }));
    return this.own.named(this.figures.read(this.trunk.id, agents), this.host.tenantCount);
  }

  /** Each live sequence's cell count from the ledger next to llama.cpp's own min/max positions. */
  checkPositions(): SequencePositionCheck[] {
    const slots = [this.trunk, ...this.liveAgents.map((agent) => agent.slot)];
    return this.own.namedChecks(positionChecks(this.host.context, this.own.shared.ledger, slots));
  }

  /** Releases this swarm's sequences; the context goes with the pool's last swarm. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const slots = [this.trunk, ...this.liveAgents.map((agent) => agent.slot)];
    this.agents.clear();
    if (this.host.tenantCount > 1) for (const slot of slots) await this.own.drop(slot);
    await this.host.leave(this);
  }

  private async release(agent: SwarmAgent): Promise<void> {
    if (agent.slot.released) return;
    const disposed = releaseSequence(agent.slot);
    this.agents.delete(agent.id);
    await disposed;
  }

  private slotOf(agent: EngineAgent): SwarmSequence {
    const live = this.agents.get(agent.id);
    if (live === undefined || live !== agent) {
      throw new SwarmRuntimeError(
        "agent-released",
        `${agent.id} is not a live agent of this swarm; fork from a live one.`,
      );
    }
    return live.slot;
  }

  private ensureOpen(): void {
    if (this.disposed)
      throw new SwarmRuntimeError("context-disposed", "This swarm context was disposed; create a new one.");
  }
}
