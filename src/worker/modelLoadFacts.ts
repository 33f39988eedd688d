// What the host shows when a model is picked or a launch begins: the model's KV shape, the runtime mode, where the
// model and its cells live, and the pool a swarm of the default recipe would get here with how many agents fit.
import { stat } from "node:fs/promises";
import { agentsThatFitCells } from "../core/modelCatalogue";
import { builtinRecipes } from "../core/recipeCatalog";
import type { GpuSetting } from "../protocol/runtime";
import { gpuChoiceOf } from "../runtime/modelServices";
import { resolveKvPool, type KvPoolKnobs } from "./swarm/kvPool";
import { processRuntime } from "./swarm/processRuntime";

export interface ModelFactsRequest extends KvPoolKnobs {
  readonly modelPath: string;
  readonly threads: number;
  readonly gpu?: GpuSetting;
}

/** The seats the pool is sized for: the default 8 agents (the estimate's trunk and tails: core/modelCatalogue). */
const defaultAgents = 8;

export async function modelLoadFacts(request: ModelFactsRequest) {
  const model = await processRuntime.loadModel({
    modelPath: request.modelPath,
    threads: request.threads,
    gpu: gpuChoiceOf(request.gpu ?? "auto"),
  });
  const shared = await model.supportsSharedCells();
  const fileBytes = (await stat(request.modelPath)).size;
  const recipe = builtinRecipes().get("organization")!;
  const pool = await resolveKvPool(model, { ...request, recipe, sequences: defaultAgents + 4 });
  const cost = model.kvCellCost(request.kvCacheType);
  const agentsThatFit = agentsThatFitCells(pool.cells, shared ? "shared-cells" : "copy-mode");
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
