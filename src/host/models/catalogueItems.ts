// Select Model's quick pick offers the curated catalogue of instruct models with native tool calling, each with its
// download size, KV bytes per cell and how many agents fit the current budget (and the free memory beside it).
import {
  catalogueFit,
  formatSize,
  kvBytesPerCell,
  modelCatalogue,
  type CatalogueModel,
} from "../../core/modelCatalogue";

export interface CatalogueItem {
  readonly id: `catalogue:${string}`;
  readonly label: string;
  readonly description: string;
  readonly detail: string;
  readonly model: CatalogueModel;
}

/** One quick-pick item per catalogue model; `freeBytes` is the machine's free memory. */
export function catalogueItems(kvCells: number, freeBytes: number): CatalogueItem[] {
  return modelCatalogue.map((model) => {
    const fit = catalogueFit(model, kvCells, "shared-cells", freeBytes);
    const limit =
      fit.limitedBy === "memory"
        ? `${fit.agentsThatFit} agents fit in free memory (${formatSize(fit.poolBytes)} of KV beside the weights)`
        : `${fit.agentsThatFit} agents fit in ${kvCells.toLocaleString("en-US")} cells (${formatSize(fit.poolBytes)})`;
    return {
      id: `catalogue:${model.id}`,
      label: `$(cloud-download) ${model.label}`,
      description: `${formatSize(model.downloadBytes)} · ${model.note}`,
      detail: `${model.uri} · ${formatSize(kvBytesPerCell(model))} KV per cell · ${limit} · calls: ${model.toolSyntax}`,
      model,
    };
  });
}
