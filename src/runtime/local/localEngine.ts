// The local engine: the model's weights in this process, its contexts created from it (swarmContext.ts). A trunk
// goes into the context kept from the last swarm when its shape matches (only what differs is decoded), else into
// a new context, restored from a state file a former worker saved when that checks out, else decoded. After the
// swarm the context goes back to the runtime's owner, its trunk saved to disk first when asked for. A swarm of the
// same model and settings as a running one joins that one's pool (swarmPool.ts) and forks their shared start.
import { existsSync } from "node:fs";
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { SwarmModel } from "../loadModel";
import type { EngineContext, OpenedTrunk, SwarmEngine } from "../port/engine";
import type { PoolSize, SwarmContextOptions, TrunkRequest } from "../port/engineShapes";
import type { RuntimeOwner } from "../runtimeOwner";
import { SwarmRuntimeError } from "../runtimeErrors";
import { createSwarmContext, SwarmContext } from "./swarmContext";
import { defaultExpectedTail, llamaMaxSequences } from "./swarmContextOptions";
import { SwarmPool } from "./swarmPool";
import { withTrunkBos } from "../trunkTokens";
import { poolFullMessage } from "./poolRoom";
import { fairShareCells } from "../../core/poolShares";

/** A swarm's cap on a pool it does not join: its own, else its fair share of a pool sized for several (none for one). */
function firstCap(request: TrunkRequest, poolCells: number, running: number): number | undefined {
  const poolSwarms = request.poolSwarms ?? 1;
  return request.cellCap ?? fairShareCells({ poolCells, poolSwarms, running, room: poolCells });
}

export class LocalEngine implements SwarmEngine {
  readonly kind = "local" as const;
  /** The contexts this engine created or took from the owner, until it hands them back or disposes them. */
  private readonly contexts = new Set<SwarmContext>();

  constructor(
    readonly model: SwarmModel,
    private readonly owner: RuntimeOwner,
  ) {}

  async createContext(options: SwarmContextOptions): Promise<SwarmContext> {
    const context = await createSwarmContext(this.model, options);
    this.contexts.add(context);
    return context;
  }

  async openTrunk(
    tokens: readonly Token[],
    request: TrunkRequest,
    sizePool: () => Promise<PoolSize>,
  ): Promise<OpenedTrunk> {
    const { shape } = request;
    // A kept context of another shape is disposed here, before the pool is sized, so its memory counts as free.
    const kept = await this.owner.takeKeptContext(shape);
    if (kept !== undefined) {
      const context = this.own(kept);
      this.contexts.add(context);
      // Its cap as on a new context of this pool, not the last swarm's.
      const cellCap = firstCap(request, context.poolCells, context.host.tenantCount - 1);
      context.retune({ cellCap, label: request.swarmId });
      try {
        return { context, trunkReuse: await context.replaceTrunk(tokens) };
      } catch (error) {
        await this.disposeContext(context);
        throw error;
      }
    }
    const joined = await this.joinLivePool(tokens, request);
    if (joined !== undefined) return joined;
    const pool = await sizePool();
    const poolSwarms = request.poolSwarms ?? 1;
    const cellCap = firstCap(request, pool.cells, 0);
    const context = await this.createContext({
      maxAgents: shape.maxAgents,
      kvCells: pool.cells,
      threads: shape.threads,
      poolOrigin: pool.origin,
      poolSwarms,
      ...(cellCap === undefined ? {} : { cellCap }),
      ...(request.swarmId === undefined ? {} : { label: request.swarmId }),
      // Sequences cost no cells in a unified pool (the cells are shared out by admission and each swarm's cap), so
      // the context has as many as llama.cpp allows for swarms of this shape: measured on stories260K, 256
      // sequences against 8 took no more time or memory to create.
      swarms: Math.floor(llamaMaxSequences / (shape.maxAgents + 2)),
      ...(shape.kvCacheType ? { kvCacheType: shape.kvCacheType } : {}),
    });
    this.owner.addLivePool(context.host, shape);
    try {
      await decodeOrRestore(context, request.stateFile, tokens);
    } catch (error) {
      await this.disposeContext(context);
      throw error;
    }
    return { context };
  }

  /**
   * This swarm on the first live pool of its shape with room for it, its cap the launch's or a fair share of that
   * pool. None has room: a launch that asked for a share of its own (`cellCap`) is refused with what runs there;
   * one that did not gets a pool of its own beside them (undefined here), sized from the memory that is free now
   * (the model is still loaded once; a pool sized for several swarms, swarmboard.poolSwarms, avoids it).
   */
  private async joinLivePool(tokens: readonly Token[], request: TrunkRequest): Promise<OpenedTrunk | undefined> {
    const trunk = withTrunkBos(this.model, [...tokens]);
    let refusal: string | undefined;
    for (const pool of this.owner.livePools(request.shape)) {
      if (!(pool instanceof SwarmPool)) continue;
      const need = this.need(pool, trunk, request);
      const room = pool.roomForAnother();
      const cap = request.cellCap ?? fairShareOf(pool, room);
      if (need.cells <= Math.min(cap, room) && need.seats <= pool.freeSequences)
        return this.joinPool(pool, tokens, request, cap);
      refusal ??= poolFullMessage(pool, need);
    }
    if (refusal !== undefined && request.cellCap !== undefined) throw new SwarmRuntimeError("pool-full", refusal);
    return undefined;
  }

  /** Without a cap a swarm needs the trunk's rest past the start it shares and each agent's first promise. */
  private need(pool: SwarmPool, trunk: readonly Token[], request: TrunkRequest): { cells: number; seats: number } {
    const rest = trunk.length - (pool.bestTrunkSource(trunk)?.shared ?? 0);
    const cells = request.cellCap ?? rest + request.shape.maxAgents * defaultExpectedTail;
    return { cells, seats: request.shape.maxAgents + 2 };
  }

  /** This swarm on a pool a running swarm of its shape created, with the cap it was given. */
  private async joinPool(
    pool: SwarmPool,
    tokens: readonly Token[],
    request: TrunkRequest,
    cap: number,
  ): Promise<OpenedTrunk> {
    const { shape } = request;
    const context = new SwarmContext(pool, {
      maxAgents: shape.maxAgents,
      kvCells: pool.poolCells,
      threads: shape.threads,
      cellCap: cap,
      ...(request.swarmId === undefined ? {} : { label: request.swarmId }),
      ...(shape.kvCacheType ? { kvCacheType: shape.kvCacheType } : {}),
    });
    this.contexts.add(context);
    try {
      return { context, trunkReuse: await context.shareTrunk(tokens) };
    } catch (error) {
      await this.disposeContext(context);
      throw error;
    }
  }

  async keepTrunk(context: EngineContext, request: TrunkRequest): Promise<void> {
    const own = this.own(context);
    this.contexts.delete(own);
    // The trunk's cells stay for the next swarm (the agents are released by now), and on disk when asked for.
    if (request.stateFile !== undefined && own.liveAgents.length === 0)
      await own.saveTrunk(request.stateFile).catch(() => undefined);
    await this.owner.keepContext(own, request.shape);
  }

  async dispose(): Promise<void> {
    const contexts = [...this.contexts];
    this.contexts.clear();
    for (const context of contexts) await context.dispose();
  }

  private async disposeContext(context: SwarmContext): Promise<void> {
    this.contexts.delete(context);
    await context.dispose();
  }

  private own(context: EngineContext): SwarmContext {
    if (!(context instanceof SwarmContext) || context.model !== this.model)
      throw new SwarmRuntimeError("invalid-request", "That context is not one of this local engine's.");
    return context;
  }
}

/** A fair share of a live pool for a swarm joining it (core/poolShares.ts); it always has a tenant, so a number. */
function fairShareOf(pool: SwarmPool, room: number): number {
  const input = { poolCells: pool.poolCells, poolSwarms: pool.facts.poolSwarms, running: pool.tenantCount, room };
  return fairShareCells(input) ?? room;
}

/** A trunk saved by an earlier worker is restored when it checks out (trunkStateFile.ts); else it is decoded. */
async function decodeOrRestore(context: SwarmContext, file: string | undefined, tokens: readonly Token[]) {
  if (file !== undefined && existsSync(file)) {
    const restore = await context.restoreTrunk(file, tokens);
    if (restore.restored) return;
    process.stderr.write(`Swarmboard: ${restore.note}; decoding the trunk.\n`);
  }
  await context.appendToTrunk(tokens);
}
