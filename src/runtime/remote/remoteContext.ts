// The remote engine's swarm context. The trunk and every agent are token lists kept here; the engine computes
// them. The trunk is sent once before any agent (one request that fills the engine's prefix cache with it), and
// every agent's request is the trunk plus its own tail, so a fork costs nothing here and, where the engine shares
// cached prefixes, nothing there either. Nothing of a swarm lives only in the engine: a restarted server loses its
// cache, not an agent.
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import { toDisposable, type Disposable } from "../../core/disposable";
import type { EngineStateEvent, KvFullEvent, SwarmStats } from "../../protocol/runtime";
import type { SwarmModel } from "../loadModel";
import type { EngineAgent, EngineContext, EngineForkOptions } from "../port/engine";
import type { GenerateRequest, ReforkResult, SequencePositionCheck, TrunkReuse } from "../port/engineShapes";
import { KvAdmissionError, SwarmRuntimeError } from "../runtimeErrors";
import { checkSeat } from "../seatCheck";
import { commonPrefixLength, withTrunkBos } from "../trunkTokens";
import type { EngineDialect } from "./engineDialect";
import type { EngineHttp } from "./engineHttp";
import { EngineOutage } from "./engineOutage";
import { generateRemote, toTokens, type RemoteShared } from "./remoteGeneration";
import { RemoteAgent } from "./remoteAgent";
import { RemoteCounters, remoteSwarmStats } from "./remoteStats";

const trunkId = "trunk";

export interface RemoteContextOptions {
  readonly model: SwarmModel;
  readonly http: EngineHttp;
  readonly dialect: EngineDialect;
  /** The engine's name for its model. */
  readonly engineModel: string;
  /** Tokens one request may hold. */
  readonly slotCells: number;
  readonly maxAgents: number;
}

export class RemoteContext implements EngineContext {
  readonly mode = "remote-engine" as const;
  private trunk: Token[] = [];
  private readonly agents = new Map<string, RemoteAgent>();
  private readonly kvFullListeners = new Set<(event: KvFullEvent) => void>();
  private readonly stateListeners = new Set<(event: EngineStateEvent) => void>();
  private readonly shared: RemoteShared;
  private disposed = false;

  constructor(private readonly options: RemoteContextOptions) {
    this.shared = {
      model: options.model,
      http: options.http,
      dialect: options.dialect,
      engineModel: options.engineModel,
      slotCells: options.slotCells,
      counters: new RemoteCounters(),
      outage: new EngineOutage(options.http, (event) => this.stateListeners.forEach((listen) => listen(event))),
      emitKvFull: (event) => this.kvFullListeners.forEach((listen) => listen(event)),
    };
  }

  get model(): SwarmModel {
    return this.options.model;
  }

  get poolCells(): number {
    return this.options.slotCells;
  }

  get liveAgents(): readonly EngineAgent[] {
    return [...this.agents.values()];
  }

  get trunkTokens(): Token[] {
    return [...this.trunk];
  }

  /** Adds to the trunk and has the engine compute it once, so its prefix cache holds it before any agent. */
  async appendToTrunk(input: string | readonly Token[]): Promise<void> {
    this.ensureOpen();
    const tokens = toTokens(this.model, input);
    this.trunk = this.trunk.length === 0 ? withTrunkBos(this.model, tokens) : [...this.trunk, ...tokens];
    await this.warmTrunk();
  }

  async replaceTrunk(input: string | readonly Token[]): Promise<TrunkReuse> {
    this.ensureOpen();
    if (this.agents.size > 0) throw new SwarmRuntimeError("invalid-request", "Release the agents before this.");
    const tokens = withTrunkBos(this.model, toTokens(this.model, input));
    const reusedTokens = commonPrefixLength(this.trunk, tokens);
    this.trunk = tokens;
    await this.warmTrunk();
    return { reusedTokens, decodedTokens: tokens.length - reusedTokens };
  }

  async fork(id: string, options: EngineForkOptions = {}): Promise<EngineAgent> {
    this.ensureOpen();
    const role = options.role ?? "agent";
    checkSeat({ id, role, trunkId, maxAgents: this.options.maxAgents, live: this.liveAgents });
    const parent = options.from === undefined ? undefined : this.live(options.from);
    const tokens = parent === undefined ? this.trunkTokens : [...parent.tokens];
    const expectedTail = options.expectedTail ?? 64;
    if (tokens.length + expectedTail > this.options.slotCells) {
      throw new KvAdmissionError(
        `${id} cannot start: its context (${tokens.length} tokens) and expected tail (${expectedTail}) exceed the ` +
          `engine's ${this.options.slotCells} tokens per request. Start the server with a larger context.`,
        tokens.length + expectedTail,
        this.options.slotCells,
      );
    }
    const agent = new RemoteAgent(id, role, parent?.id ?? trunkId, tokens, {
      room: (self) => this.options.slotCells - self.tokens.length,
      tokenize: (input) => toTokens(this.model, input),
      generate: (self, request: GenerateRequest) => generateRemote(this.shared, self.id, self.tokens, request),
      release: async (self) => void this.agents.delete(self.id),
    });
    this.agents.set(id, agent);
    return agent;
  }

  async refork(agent: EngineAgent): Promise<ReforkResult> {
    const live = this.live(agent);
    const releasedCells = Math.max(0, live.tokens.length - commonPrefixLength(live.tokens, this.trunk));
    live.restart(this.trunkTokens, trunkId);
    return { releasedCells, positions: this.positionsOf(live) };
  }

  onKvFull(listener: (event: KvFullEvent) => void): Disposable {
    this.kvFullListeners.add(listener);
    return toDisposable(() => this.kvFullListeners.delete(listener));
  }

  onEngineState(listener: (event: EngineStateEvent) => void): Disposable {
    this.stateListeners.add(listener);
    return toDisposable(() => this.stateListeners.delete(listener));
  }

  stats(): SwarmStats {
    return remoteSwarmStats({
      model: this.model,
      url: this.options.http.url,
      engineModel: this.options.engineModel,
      slotCells: this.options.slotCells,
      trunkTokens: this.trunk.length,
      agents: this.liveAgents.map((agent) => ({
        id: agent.id,
        tokens: agent.tokens.length,
        privateTokens: agent.tokens.length - commonPrefixLength(agent.tokens, this.trunk),
        paused: agent.paused,
      })),
      counters: this.shared.counters,
      retries: this.options.http.retries,
    });
  }

  /** The prompt each agent's next request sends: positions 0 to its length - 1, all of them its own. */
  checkPositions(): SequencePositionCheck[] {
    return [...this.agents.values()].map((agent) => this.positionsOf(agent));
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.shared.outage.stop();
    this.agents.clear();
  }

  private positionsOf(agent: EngineAgent): SequencePositionCheck {
    const cells = agent.tokens.length;
    return { id: agent.id, ledgerCells: cells, llamaMinPosition: 0, llamaMaxPosition: cells - 1 };
  }

  /** One request with the trunk as its prompt (a lost engine is waited for, as for an agent's request). */
  private async warmTrunk(): Promise<void> {
    if (this.trunk.length + 1 > this.options.slotCells) {
      throw new KvAdmissionError(
        `The trunk (${this.trunk.length} tokens) does not fit the engine's ${this.options.slotCells} tokens per ` +
          "request. Start the server with a larger context (llama-server -c, divided among its -np slots).",
        this.trunk.length + 1,
        this.options.slotCells,
      );
    }
    await generateRemote(this.shared, trunkId, this.trunk, { maxTokens: 1 });
  }

  private live(agent: EngineAgent): RemoteAgent {
    const live = this.agents.get(agent.id);
    if (live === undefined || live !== agent) {
      throw new SwarmRuntimeError(
        "agent-released",
        `${agent.id} is not a live agent of this swarm; fork from a live one.`,
      );
    }
    return live;
  }

  private ensureOpen(): void {
    if (this.disposed)
      throw new SwarmRuntimeError("context-disposed", "This swarm context was disposed; create a new one.");
  }
}
