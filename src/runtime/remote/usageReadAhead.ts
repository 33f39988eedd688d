// A stream left before the engine said what its prompt cost. The OpenAI-compatible engines (vLLM, SGLang,
// llama-server's /v1/completions) send the usage (prompt tokens, cached tokens) only at their own end, some in a
// last event of its own after the one that ends the text, and an agent's turn mostly ends at a local stop string
// (a call's closing tag), so closing at once would leave most prompts uncounted and the budget's cache figure
// empty. The generation is over for the agent at once; in the background the stream is read on for a few more
// events, since a model usually ends its turn right after a call, and closed at the usage or at the limit,
// whichever comes first.
import type { EngineChunk } from "./engineDialect";
import type { RemoteCounters } from "./remoteStats";

/**
 * Events read past a stop for the usage. Each is about one token the engine generates for nobody: 32 is under a
 * second of one slot on a GPU engine, and covers a call's close, the end-of-turn token and a short trailer.
 */
export const usageReadAheadEvents = 32;

/** Reads `chunks` on for the prompt's usage (counted when it comes), then closes the stream; never throws. */
export async function readOnForUsage(
  chunks: AsyncIterator<EngineChunk>,
  counters: RemoteCounters,
  limit = usageReadAheadEvents,
): Promise<boolean> {
  let counted = false;
  try {
    for (let read = 0; read < limit && !counted; read++) {
      const next = await chunks.next();
      if (next.done) break;
      if (next.value.prompt !== undefined) {
        counters.countPrompt(next.value.prompt);
        counted = true;
      }
    }
  } catch {
    // The engine went away or the swarm stopped: the prompt stays uncounted, which the budget already allows for.
  } finally {
    await chunks.return?.(undefined).catch(() => undefined);
  }
  return counted;
}
