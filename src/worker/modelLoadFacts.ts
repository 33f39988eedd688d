// What the host shows when a model is picked or a launch begins: the model's KV shape, the runtime mode, where the
// model and its cells live, and the pool a swarm of the default recipe would get here with how many agents fit.
import { stat } from "node:fs/promises";
import { builtinRecipes } from "../core/recipeCatalog";
import type { GpuSetting, KvCacheType } from "../protocol/runtime";
import { gpuChoiceOf } from "../runtime/gpuBackend";
import { loadSwarmModel } from "../runtime/loadModel";
import { resolveKvPool } from "./kvPool";

export interface ModelFactsRequest {
  readonly modelPath: string;
  readonly threads: number;
  readonly kvCells?: number;
  readonly gpu?: GpuSetting;
  readonly kvCacheType?: KvCacheType;
}

/** The shape of a swarm the estimate assumes: a 2,048-token trunk, 1,024-token tails, the default 8 agents. */
const trunk = 2048;
const tail = 1024;
const defaultAgents = 8;

export async function modelLoadFacts(request: ModelFactsRequest) {
  const model = await loadSwarmModel({
    modelPath: request.modelPath,
    threads: request.threads,
    gpu: gpuChoiceOf(request.gpu ?? "auto"),
  });
  const shared = await model.supportsSharedCells();
  const fileBytes = (await stat(request.modelPath)).size;
  const recipe = builtinRecipes().get("organization")!;
  const pool = await resolveKvPool(model, { ...request, recipe, sequences: defaultAgents + 4 });
  const cost = model.kvCellCost(request.kvCacheType);
  const agentsThatFit = shared
    ? Math.max(0, Math.floor((pool.cells - trunk) / tail))
    : Math.max(0, Math.floor(pool.cells / (trunk + tail)));
  return {
    facts: model.facts,
    mode: shared ? ("shared-cells" as const) : ("copy-mode" as const),
    fileBytes,
    agentsThatFit,
    poolBytes: pool.cells * cost.bytesPerCell,
    poolCells: pool.cells,
    poolOrigin: pool.origin,
    kvType: cost.typeName,
    bytesPerCell: cost.bytesPerCell,
    placement: await model.placement(),
  };
}
