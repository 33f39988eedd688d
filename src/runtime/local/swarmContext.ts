// The swarm context: one llama.cpp context whose sequences are the trunk (sequence 0, the shared context,
// decoded once), the agents (forks of it) and one synthesist. In shared-cells mode all sequences draw from one
// unified KV pool, so a fork only adds an owner to the trunk's cells; in copy mode each fork copies them.
// The mode is read from the real context, never assumed.
import type { LlamaContext, Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import { toDisposable, type Disposable } from "../../core/disposable";
import { SerialQueue } from "../../core/serialQueue";
import type { EngineStateEvent, KvFullEvent, RuntimeMode, SwarmStats } from "../../protocol/runtime";
import { CellLedger } from "./cellLedger";
import { GenerationMeter } from "./generationMeter";
import { KvAdmission } from "./kvAdmission";
import type { SwarmModel } from "../loadModel";
import { KvAdmissionError, SwarmRuntimeError } from "../runtimeErrors";
import { positionChecks } from "./sequenceInternals";
import { forkFrom, releaseSequence } from "./forkSequence";
import { StepBarrier } from "./stepBarrier";
import type { EngineAgent, EngineContext } from "../port/engine";
import type { ReforkResult, SequencePositionCheck, SwarmContextOptions, TrunkReuse } from "../port/engineShapes";
import { SwarmAgent } from "./swarmAgent";
import { positionCheck, reforkFromTrunk } from "./reforkSequence";
import { checkSeat } from "../seatCheck";
import { checkContextOptions, llamaContextOptions, type ForkOptions, type PoolFacts } from "./swarmContextOptions";
import { SwarmSequence, type SwarmShared } from "./swarmSequence";
import { SwarmFigures } from "./swarmFigures";
import { rewriteTrunk } from "./trunkReuse";
import { withTrunkBos } from "../trunkTokens";
import { restoreTrunkState, saveTrunkState, type TrunkRestore } from "./trunkStateFile";
import type { TrunkStateHeader } from "../../protocol/trunkState";

export const trunkId = "trunk";

export async function createSwarmContext(model: SwarmModel, options: SwarmContextOptions): Promise<SwarmContext> {
  checkContextOptions(options);
  const cost = model.kvCellCost(options.kvCacheType);
  const shared = options.unified !== false && (await model.supportsSharedCells());
  const headSize = Math.min(model.facts.keyHeadDim, model.facts.valueHeadDim);
  const context = await model.model.createContext(llamaContextOptions(options, shared, cost, model.threads, headSize));
  const pool: PoolFacts = { cost, placement: await model.placement(), poolOrigin: options.poolOrigin };
  return new SwarmContext(model, context, options, pool);
}

/** The local engine: one llama.cpp context in this process (see ../port/engine.ts for the interface). */
export class SwarmContext implements EngineContext {
  readonly mode: RuntimeMode;
  private readonly shared: SwarmShared;
  private readonly trunk: SwarmSequence;
  private readonly agents = new Map<string, SwarmAgent>();
  private readonly kvFullListeners = new Set<(event: KvFullEvent) => void>();
  /** Forks (and re-forks) run one at a time, so forking many agents at once from one parent does not find it busy. */
  private readonly forks = new SerialQueue();
  private disposed = false;
  /** What the budget shows, counted from the present trunk (a kept context counts from there). */
  private readonly figures: SwarmFigures;

  constructor(
    readonly model: SwarmModel,
    private readonly context: LlamaContext,
    private readonly options: SwarmContextOptions,
    private readonly pool: PoolFacts,
  ) {
    this.mode = context.kvUnified ? "shared-cells" : "copy-mode";
    const ledger = new CellLedger(this.mode);
    this.shared = {
      model,
      context,
      ledger,
      admission: new KvAdmission(ledger, context.getAllocatedContextSize(), context.contextSize),
      barrier: new StepBarrier(),
      meter: new GenerationMeter(() => context.decodeDispatchStats),
      emitKvFull: (event) => this.kvFullListeners.forEach((listener) => listener(event)),
    };
    this.trunk = this.openSequence(trunkId);
    ledger.addRoot(trunkId);
    this.figures = new SwarmFigures(this.mode, context, this.shared, pool);
  }

  /** Cells llama.cpp allocated for the whole context. */
  get poolCells(): number {
    return this.shared.admission.poolCells;
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

  /** Saves the trunk's cells to `file` (and `file`.kv) for a later process (trunkStateFile.ts). */
  saveTrunk(file: string): Promise<TrunkStateHeader> {
    this.ensureOpen();
    return this.trunk.exclusive("save", () => saveTrunkState(this.trunk, this.pool.cost.typeName, file));
  }

  /**
   * Restores a saved trunk into this empty one when its start matches `input`'s, keeps the shared start, and
   * decodes the rest; else a note and an empty trunk.
   */
  restoreTrunk(file: string, input: string | readonly Token[]): Promise<TrunkRestore> {
    this.ensureOpen();
    return this.trunk.exclusive("restore", async () => {
      const tokens = withTrunkBos(this.model, this.trunk.tokenize(input));
      const restore = await restoreTrunkState(this.trunk, this.pool.cost.typeName, file, tokens);
      if (!restore.restored) return restore;
      const kept = await rewriteTrunk(this.trunk, tokens);
      return { restored: true, restoredTokens: kept.reusedTokens };
    });
  }

  /** A new swarm's trunk on a kept context: decodes only what differs from the last (trunkReuse.ts). */
  replaceTrunk(input: string | readonly Token[]): Promise<TrunkReuse> {
    this.ensureOpen();
    if (this.agents.size > 0) throw new SwarmRuntimeError("invalid-request", "Release the agents before this.");
    // The new swarm's figures (dispatches, step time) start at its trunk, as on a new context.
    this.figures.restart();
    return this.trunk.exclusive("replace", () =>
      rewriteTrunk(this.trunk, withTrunkBos(this.model, this.trunk.tokenize(input))),
    );
  }

  /**
   * A new agent named `id` sharing the trunk's (or `from`'s) cells: no decode, no new cells in shared-cells
   * mode. The caller names it (the swarm numbers its seats); an id already live is refused.
   */
  fork(id: string, options: ForkOptions = {}): Promise<SwarmAgent> {
    return this.forks.run(() => this.forkNow(id, options));
  }

  private async forkNow(id: string, options: ForkOptions): Promise<SwarmAgent> {
    this.ensureOpen();
    const parent = options.from === undefined ? this.trunk : this.slotOf(options.from);
    const role = options.role ?? "agent";
    checkSeat({ id, role, trunkId, maxAgents: this.options.maxAgents, live: this.liveAgents });
    const expectedTail = options.expectedTail ?? this.options.defaultExpectedTail ?? 64;
    // The fixed part of the worker's memory is read with no agent live: before the first fork (and between stages).
    if (this.liveAgents.length === 0) this.figures.readFixedMemory();
    return parent.exclusive("fork", async () => {
      const slot = await forkFrom(parent, id, (next) => this.openSequence(next), expectedTail);
      const agent = new SwarmAgent(slot, role, parent.id, (released) => this.release(released));
      this.agents.set(slot.id, agent);
      return agent;
    });
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
    const expectedTail = options.expectedTail ?? this.options.defaultExpectedTail ?? 64;
    return old.exclusive("compact", () =>
      this.trunk.exclusive("fork", async () => {
        const open = (id: string) => this.openSequence(id);
        const { slot, releasedCells } = await reforkFromTrunk(old, this.trunk, open, expectedTail);
        this.agents.get(agent.id)!.rebind(slot, trunkId);
        return { releasedCells, positions: positionCheck(slot) };
      }),
    );
  }

  /** Listens for agents paused because the pool is full. */
  onKvFull(listener: (event: KvFullEvent) => void): Disposable {
    this.kvFullListeners.add(listener);
    return toDisposable(() => this.kvFullListeners.delete(listener));
  }

  /** The local engine is in this process: it never goes away while the swarm runs. */
  onEngineState(_listener: (event: EngineStateEvent) => void): Disposable {
    return toDisposable(() => undefined);
  }

  stats(): SwarmStats {
    return this.figures.read(
      trunkId,
      this.liveAgents.map((agent) => ({ id: agent.id, paused: agent.paused })),
    );
  }

  /** Each live sequence's cell count from the ledger next to llama.cpp's own min/max positions. */
  checkPositions(): SequencePositionCheck[] {
    const slots = [this.trunk, ...this.liveAgents.map((agent) => agent.slot)];
    return positionChecks(this.context, this.shared.ledger, slots);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.agents.clear();
    await this.context.dispose();
  }

  private async release(agent: SwarmAgent): Promise<void> {
    if (agent.slot.released) return;
    const disposed = releaseSequence(agent.slot);
    this.agents.delete(agent.id);
    await disposed;
  }

  private openSequence(id: string): SwarmSequence {
    const refuseShift = (): never => {
      throw new KvAdmissionError(`${id} reached its sequence limit of ${this.context.contextSize} cells.`, 1, 0);
    };
    const sequence = this.context.getSequence({ contextShift: { strategy: refuseShift } });
    return new SwarmSequence(id, sequence, this.shared);
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
