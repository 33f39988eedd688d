// The remote engine: the model loaded vocabulary-only here (to render prompts with its own chat wrapper and count
// tokens), the server checked before any agent starts (engineHealth.ts), and contexts that send token ids to it.
// Its prefix cache is the kept trunk: a trunk is sent once when its context opens, and a finished swarm's context
// is disposed (there is nothing of it to keep or save here).
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { SwarmModel } from "../loadModel";
import type { EngineContext, OpenedTrunk, RemoteEngineFacts, SwarmEngine } from "../port/engine";
import type { SwarmContextOptions, TrunkRequest } from "../port/engineShapes";
import type { EngineHealth } from "./engineHealth";
import type { EngineHttp } from "./engineHttp";
import { RemoteContext } from "./remoteContext";

export class RemoteEngine implements SwarmEngine {
  readonly kind = "remote" as const;
  readonly remote: RemoteEngineFacts;
  /** The contexts this engine created, until they are disposed. */
  private readonly contexts = new Set<EngineContext>();

  constructor(
    readonly model: SwarmModel,
    private readonly http: EngineHttp,
    private readonly health: EngineHealth,
  ) {
    this.remote = { ...health, url: http.url, dialect: health.dialect.name };
  }

  async createContext(options: SwarmContextOptions): Promise<EngineContext> {
    const context = new RemoteContext({
      model: this.model,
      http: this.http,
      dialect: this.health.dialect,
      engineModel: this.health.engineModel,
      slotCells: this.health.slotCells,
      maxAgents: options.maxAgents,
    });
    this.contexts.add(context);
    return context;
  }

  /** The engine's prefix cache is the kept trunk: it is sent once, now, and every agent's request starts with it. */
  async openTrunk(tokens: readonly Token[], request: TrunkRequest): Promise<OpenedTrunk> {
    const context = await this.createContext({ maxAgents: request.shape.maxAgents, kvCells: 1 });
    try {
      await context.appendToTrunk(tokens);
    } catch (error) {
      await this.disposeContext(context);
      throw error;
    }
    return { context };
  }

  keepTrunk(context: EngineContext): Promise<void> {
    return this.disposeContext(context);
  }

  async dispose(): Promise<void> {
    const contexts = [...this.contexts];
    this.contexts.clear();
    for (const context of contexts) await context.dispose();
  }

  private async disposeContext(context: EngineContext): Promise<void> {
    this.contexts.delete(context);
    await context.dispose();
  }
}
