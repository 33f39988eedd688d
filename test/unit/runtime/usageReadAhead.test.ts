// Reading on past a local stop for the engine's usage (its prompt's cost comes only with its own last event): the
// usage is counted when it comes within the limit, not after it, and the stream is closed either way, also when
// the engine fails while it is read. The real stream is in test/runtime/remoteEngine.test.ts (llama-server).
import assert from "node:assert/strict";
import type { EngineChunk } from "../../../src/runtime/remote/engineDialect";
import { RemoteCounters } from "../../../src/runtime/remote/remoteStats";
import { readOnForUsage } from "../../../src/runtime/remote/usageReadAhead";

/** A stream of `texts` text events, then an end, then the usage event; records whether it was closed. */
function engineStream(texts: number, failAt?: number) {
  const state = { closed: false, read: 0 };
  async function* events(): AsyncGenerator<EngineChunk> {
    try {
      for (let i = 0; i < texts; i++) {
        state.read++;
        if (i === failAt) throw new Error("socket hang up");
        yield { text: ` t${i}` };
      }
      yield { end: "eos" };
      yield { prompt: { computed: 40, cached: 900 } };
    } finally {
      state.closed = true;
    }
  }
  return { chunks: events(), state };
}

describe("runtime: reading on for the usage after a local stop", () => {
  it("counts the usage that comes within the limit, and closes the stream", async () => {
    const counters = new RemoteCounters();
    const { chunks, state } = engineStream(3);
    assert.equal(await readOnForUsage(chunks, counters, 8), true);
    assert.deepEqual(
      [counters.computedPromptTokens, counters.cachedPromptTokens, counters.cacheReported],
      [40, 900, true],
    );
    assert.equal(state.closed, true);
  });

  it("gives up at the limit without counting, and closes the stream", async () => {
    const counters = new RemoteCounters();
    const { chunks, state } = engineStream(50);
    assert.equal(await readOnForUsage(chunks, counters, 8), false);
    assert.equal(state.read, 8, "it read no further than the limit");
    assert.equal(counters.computedPromptTokens, 0);
    assert.equal(counters.cacheReported, false);
    assert.equal(state.closed, true);
  });

  it("swallows an engine failure while reading on (the generation was already over)", async () => {
    const counters = new RemoteCounters();
    const { chunks, state } = engineStream(5, 2);
    assert.equal(await readOnForUsage(chunks, counters, 8), false);
    assert.equal(counters.computedPromptTokens, 0);
    assert.equal(state.closed, true);
  });
});
