// The one owner of what the runtime loads and keeps for a process: a Llama per GPU choice, the models loaded on
// them, and the context kept from the last swarm. It replaces the module-level caches those three lived in, so
// whoever created it can dispose everything in order: the kept context first, then the models, then the Llamas
// (children before parents, as node-llama-cpp's own lifecycle goes). The worker and the CLI create one per process.
// It also knows the live pools (contexts several swarms share, local/swarmPool.ts), so a swarm of the same model
// and settings as a running one joins its pool instead of creating a second context.
import path from "node:path";
import { loadLlama, type LoadedLlama } from "./loadLlama";
import { loadSwarmModel, type SwarmModel } from "./loadModel";
import type { EngineContext } from "./port/engine";
import type { GpuChoice, LoadSwarmModelOptions, TrunkShape } from "./port/engineShapes";
import { SwarmRuntimeError } from "./runtimeErrors";
import { checkRoomForModel, processMemoryRoom, type MemoryRoom } from "./modelRoom";

/** A pool swarms share, as the owner sees it (the local engine's SwarmPool). */
export interface LivePool {
  readonly isDisposed: boolean;
}

function sameShape(a: TrunkShape, b: TrunkShape): boolean {
  return a.maxAgents === b.maxAgents && (a.poolSwarms ?? 1) === (b.poolSwarms ?? 1) && samePoolShape(a, b);
}

/** Swarms may share a pool when they run the same model with the same threads, KV type and pool caps. */
function samePoolShape(a: TrunkShape, b: TrunkShape): boolean {
  return (
    a.model === b.model &&
    a.threads === b.threads &&
    a.kvCacheType === b.kvCacheType &&
    a.caps.length === b.caps.length &&
    a.caps.every((cap, i) => cap === b.caps[i])
  );
}

/** One load per key, shared by every caller; a failed one is forgotten, so the next call tries again. */
function remember<T>(map: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let pending = map.get(key);
  if (pending === undefined) {
    pending = load();
    map.set(key, pending);
    pending.catch(() => map.delete(key));
  }
  return pending;
}

export class RuntimeOwner {
  private readonly llamas = new Map<string, Promise<LoadedLlama>>();
  private readonly models = new Map<string, Promise<SwarmModel>>();
  private kept: { readonly context: EngineContext; readonly shape: TrunkShape } | undefined;
  private pools: Array<{ readonly pool: LivePool; readonly shape: TrunkShape }> = [];
  private disposed = false;
  /** Models this owner loaded with their weights: the shared worker reports it (one model, many clients: 1). */
  private weightLoads = 0;
  /** The files of the models loaded with their weights, by load key (a second one loads only if memory allows). */
  private readonly weightFiles = new Map<string, string>();

  /** `memoryRoom`: the memory a second model must fit in (modelRoom.ts; a test gives its own). */
  constructor(private readonly memoryRoom: () => MemoryRoom = processMemoryRoom) {}

  /** One Llama per GPU choice for the owner's life (the models are loaded on top of it). */
  async llama(gpu: GpuChoice = false): Promise<LoadedLlama> {
    this.ensureOpen();
    return remember(this.llamas, String(gpu), () => loadLlama(gpu));
  }

  /** Loads a model once per (path, GPU, threads, vocabulary-only); later calls get the same handle until it is disposed. */
  async loadModel(options: LoadSwarmModelOptions): Promise<SwarmModel> {
    this.ensureOpen();
    const modelPath = path.resolve(options.modelPath);
    const key = JSON.stringify([modelPath, String(options.gpu ?? false), options.threads, options.vocabOnly === true]);
    return remember(this.models, key, async () => {
      const weights = options.vocabOnly !== true;
      if (weights) {
        const others = new Set([...this.weightFiles.values()].filter((file) => file !== modelPath));
        checkRoomForModel(modelPath, [...others], this.memoryRoom());
      }
      const model = await loadSwarmModel({ ...options, modelPath }, (gpu) => this.llama(gpu));
      if (weights) {
        this.weightLoads++;
        this.weightFiles.set(key, modelPath);
      }
      model.model.onDispose.createListener(() => {
        this.models.delete(key);
        this.weightFiles.delete(key);
      });
      return model;
    });
  }

  /** How many models this owner loaded with their weights (a vocabulary-only load for a remote engine is not one). */
  modelLoadCount(): number {
    return this.weightLoads;
  }

  /** A pool created for a swarm of `shape`: later swarms of the same model and settings may join it. */
  addLivePool(pool: LivePool, shape: TrunkShape): void {
    this.pools.push({ pool, shape });
  }

  /** The live pools a swarm of `shape` may join, oldest first (a disposed one is forgotten here). */
  livePools(shape: TrunkShape): LivePool[] {
    this.pools = this.pools.filter((entry) => !entry.pool.isDisposed);
    if (shape.model.model.disposed) return [];
    return this.pools.filter((entry) => samePoolShape(entry.shape, shape)).map((entry) => entry.pool);
  }

  /** Keeps `context` for the next swarm (disposing the one kept before); one with live agents is disposed. */
  async keepContext(context: EngineContext, shape: TrunkShape): Promise<void> {
    const previous = this.kept;
    this.kept = undefined;
    if (previous !== undefined && previous.context !== context) await previous.context.dispose();
    if (this.disposed || context.liveAgents.length > 0 || shape.model.model.disposed) {
      await context.dispose();
      return;
    }
    this.kept = { context, shape };
  }

  /** The kept context when it has this shape (it is handed over, no longer kept); otherwise it is disposed. */
  async takeKeptContext(shape: TrunkShape): Promise<EngineContext | undefined> {
    const candidate = this.kept;
    this.kept = undefined;
    if (candidate === undefined) return undefined;
    if (sameShape(candidate.shape, shape) && !shape.model.model.disposed) return candidate.context;
    await candidate.context.dispose();
    return undefined;
  }

  /** Disposes the kept context, if any (a test's clean-up; dispose() does it too). */
  async dropKeptContext(): Promise<void> {
    const candidate = this.kept;
    this.kept = undefined;
    await candidate?.context.dispose();
  }

  /** Disposes the kept context, then every model, then every Llama; the owner loads nothing afterwards. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.dropKeptContext();
    const models = await Promise.allSettled([...this.models.values()]);
    this.models.clear();
    for (const model of models) if (model.status === "fulfilled") await model.value.dispose();
    const llamas = await Promise.allSettled([...this.llamas.values()]);
    this.llamas.clear();
    for (const llama of llamas) if (llama.status === "fulfilled") await llama.value.llama.dispose();
  }

  private ensureOpen(): void {
    if (this.disposed)
      throw new SwarmRuntimeError("context-disposed", "The runtime's owner was disposed; create a new one.");
  }
}
