// The header of a trunk saved to disk (src/runtime/local/trunkStateFile.ts): what the llama.cpp state beside it was made
// from. It is read back by a later process, so it is parsed, and every field must match before the state is loaded.
import { z } from "zod";

export const trunkStateHeaderSchema = z.object({
  format: z.literal(1),
  /** The model file the cells were computed with. */
  model: z.object({ path: z.string(), bytes: z.number().int().nonnegative(), mtimeMs: z.number() }),
  /** The runtime that computed them: build kind, CPU variant, GPU backend. */
  build: z.string(),
  /** The KV cache's element type ("F16", "Q8_0"). */
  kvType: z.string(),
  /** The decoded tokens the state holds, from position 0. */
  tokens: z.array(z.number().int().nonnegative()),
  /** Size and SHA-256 of the state file (a torn or altered file is refused). */
  stateBytes: z.number().int().nonnegative(),
  stateSha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type TrunkStateHeader = z.infer<typeof trunkStateHeaderSchema>;
