// The live budget as one plain object (it crosses the worker boundary; see src/protocol/runtime.ts).
import type { RuntimeMode, SwarmStats, WorkerMemory } from "../../protocol/runtime";
import type { CellLedger } from "./cellLedger";
import type { GenerationMeter } from "./generationMeter";
import type { KvAdmission } from "./kvAdmission";
import type { PoolFacts } from "./swarmContextOptions";

export interface SwarmStatsInput {
  mode: RuntimeMode;
  ledger: CellLedger;
  admission: KvAdmission;
  meter: GenerationMeter;
  dispatch: { dispatches: number; tokens: number };
  pool: PoolFacts;
  trunkId: string;
  agents: ReadonlyArray<{ id: string; paused: boolean }>;
  /** The worker's memory beyond weights and KV, read now (workerMemory.ts). */
  memory?: WorkerMemory;
}

export function buildSwarmStats(input: SwarmStatsInput): SwarmStats {
  const { ledger, admission, dispatch } = input;
  const usedCells = ledger.usedCells();
  const poolCells = admission.poolCells;
  const { bytesPerCell } = input.pool.cost;
  return {
    mode: input.mode,
    poolCells,
    sequenceCellLimit: admission.sequenceCellLimit,
    trunkCells: ledger.sequenceCells(input.trunkId),
    // In copy mode each agent holds a copy of the trunk: nobody shares the trunk's own cells.
    trunkOwners: input.mode === "shared-cells" ? ledger.readersOf(input.trunkId) : 0,
    agents: input.agents.map((agent) => ({
      agentId: agent.id,
      privateCells: ledger.privateCells(agent.id),
      sequenceCells: ledger.sequenceCells(agent.id),
      paused: agent.paused,
    })),
    usedCells,
    freeCells: Math.max(0, poolCells - usedCells),
    reservedCells: admission.outstanding(),
    bytesPerCell,
    kvType: input.pool.cost.typeName,
    placement: input.pool.placement,
    ...(input.pool.poolOrigin === undefined ? {} : { poolOrigin: input.pool.poolOrigin }),
    usedBytes: usedCells * bytesPerCell,
    poolBytes: poolCells * bytesPerCell,
    dispatches: dispatch.dispatches,
    dispatchedTokens: dispatch.tokens,
    rowsPerDispatch: dispatch.dispatches === 0 ? 0 : dispatch.tokens / dispatch.dispatches,
    ...input.meter.read(),
    ...(input.memory === undefined ? {} : { memory: input.memory }),
  };
}
