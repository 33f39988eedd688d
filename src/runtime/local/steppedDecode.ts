// Long decodes in the pool's steps. A trunk of thousands of tokens (a swarm joining a pool whose agents generate),
// or an agent's long prompt, would otherwise hold llama.cpp for its whole prefill: node-llama-cpp splits it into
// batches but dispatches them back to back, and the generating agents, which queue their next token a turn
// later, wait for all of them (measured on stories260K: one token of the running swarm in a 3,000-token, 19.5 s
// prefill). Here such a decode goes in the chunks the step barrier grants it, each in the same `llama_decode` as
// the other participants' rows, so the running agents step once per chunk.
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { SwarmSequence } from "./swarmSequence";

/**
 * For a participant of the barrier: decodes the head of `tokens` (no logits) step by step while it is more than
 * a step grants it, and resolves, in the step that grants it whole, with what is left for the caller to queue at
 * once. The caller took the cells of all `tokens`: each chunk's are committed here as it is decoded, and on a
 * failure those of the rest are given back.
 */
export async function stepUntilFits(slot: SwarmSequence, tokens: readonly Token[]): Promise<readonly Token[]> {
  let rest = tokens;
  for (;;) {
    const granted = await slot.shared.barrier.arrive(rest.length);
    if (granted >= rest.length) return rest;
    await decodeChunk(slot, rest, granted);
    rest = rest.slice(granted);
  }
}

/**
 * Decodes `tokens` (no logits, cells already taken) into `slot` in the chunks the barrier grants, as one more
 * participant of the steps. Alone on the pool each chunk is a full batch: the dispatches node-llama-cpp made.
 */
export async function decodeInSteps(slot: SwarmSequence, tokens: readonly Token[]): Promise<void> {
  const { barrier } = slot.shared;
  barrier.join();
  try {
    const last = await stepUntilFits(slot, tokens);
    await decodeChunk(slot, last, last.length);
  } finally {
    barrier.leave();
  }
}

/** Decodes the first `count` of `rest` and commits their cells; on a failure gives back all of `rest`'s. */
async function decodeChunk(slot: SwarmSequence, rest: readonly Token[], count: number): Promise<void> {
  const { admission } = slot.shared;
  try {
    await slot.sequence.evaluateWithoutGeneratingNewTokens(rest.slice(0, count));
  } catch (error) {
    admission.giveBack(slot.id, rest.length);
    throw error;
  }
  admission.commit(slot.id, count);
}
