// The panel's KV budget card as the host sends it (part of the panel state, src/protocol/webviewMessages.ts): the
// worker's last kv-stats unchanged, the plain sentence the card leads with, and what the host derives.
import { z } from "zod";
import { runtimeModeSchema } from "./runtime";

/** The KV budget exactly as the worker's last kv-stats said, plus what the host derives from it. */
export const budgetViewSchema = z.object({
  /** The budget in one plain sentence (agents, memory used of the cache, room for more), shown first. */
  summary: z.string(),
  mode: runtimeModeSchema,
  /** The swarm's part of a pool shared with other swarms, in words (absent: the pool is its own). */
  share: z.string().optional(),
  /** A remote engine's prefix cache, in words ("llama-server at http://...: 7,168 of 8,264 prompt tokens cached"). */
  engine: z.string().optional(),
  poolCells: z.number(),
  trunkCells: z.number(),
  trunkOwners: z.number(),
  usedCells: z.number(),
  freeCells: z.number(),
  reservedCells: z.number(),
  usedBytes: z.number(),
  poolBytes: z.number(),
  bytesPerCell: z.number(),
  /** The KV cache's element type ("F16", "Q8_0"), when the worker said it. */
  kvType: z.string().optional(),
  /** Where the model and the cells live, in words ("cuda (NVIDIA H200): 25/25 layers offloaded, KV cells in VRAM"). */
  placement: z.string().optional(),
  /** Where the pool's size came from, in words. */
  poolOrigin: z.string().optional(),
  /** `agentsThatStillFit`; null when unbounded (no agent has a tail yet). */
  moreAgentsFit: z.number().nullable(),
  meanStepMs: z.number(),
  rowsPerDispatch: z.number(),
  dispatches: z.number(),
  tokensPerSecond: z.number(),
  /** Compactions by re-fork so far (an agent's tail reached its share) and the cells they released. */
  compactions: z.number().optional(),
  compactedCells: z.number().optional(),
  /** The worker's memory beyond weights and KV (the local runtime): figures, and the whole split in words. */
  memory: z
    .object({
      restBytes: z.number(),
      fixedRestBytes: z.number(),
      perAgentRestBytes: z.number().optional(),
      moreAgentsByMemory: z.number().optional(),
      text: z.string(),
    })
    .optional(),
  /** Set when memory, not KV cells, bounds `moreAgentsFit`. */
  moreAgentsLimitedBy: z.literal("memory").optional(),
});
export type BudgetView = z.infer<typeof budgetViewSchema>;
