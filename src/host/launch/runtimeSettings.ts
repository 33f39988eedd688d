// The settings that decide how the worker runs the model, as the worker's request fields: the GPU backend, the KV
// cache type, and the pool's caps (0 cells or an empty budget in the settings = none: the worker sizes the pool from
// free memory).
import type { Settings } from "../../protocol/settings";
import type { GpuSetting, KvCacheType } from "../../protocol/runtime";

export interface RuntimeRequest {
  readonly kvCells?: number;
  readonly memoryBudget?: string;
  /** The swarm's cap on a pool it shares (0 in the settings: none asked, a fair share). */
  readonly poolShareCells?: number;
  readonly poolSwarms?: number;
  readonly gpu: GpuSetting;
  readonly kvCacheType: KvCacheType;
}

export function runtimeSettings(settings: Settings, kvCells?: number): RuntimeRequest {
  const cap = kvCells ?? (settings.kvCellsBudget > 0 ? settings.kvCellsBudget : undefined);
  return {
    gpu: settings.gpu,
    kvCacheType: settings.kvCacheType,
    ...(cap === undefined ? {} : { kvCells: cap }),
    ...(settings.memoryBudget === "" ? {} : { memoryBudget: settings.memoryBudget }),
    ...(settings.poolShareCells > 0 ? { poolShareCells: settings.poolShareCells } : {}),
    ...(settings.poolSwarms > 1 ? { poolSwarms: settings.poolSwarms } : {}),
  };
}
