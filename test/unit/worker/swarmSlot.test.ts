// One swarm per worker: a launch is refused while a swarm runs or is being set up, and waits (is not refused) for a
// swarm that has announced its end but is still closing. The closing here is a promise the test settles by hand, so
// the order is fixed; test/swarm/workerHistory.test.ts launches through the real worker.
import assert from "node:assert/strict";
import { HandlerError } from "../../../src/core/rpc/rpcPeer";
import { SwarmSlot } from "../../../src/worker/swarmSlot";

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const refusedAsRunning = (error: unknown) => error instanceof HandlerError && error.code === "swarm-running";

describe("worker: the swarm slot", () => {
  it("refuses a launch while a swarm runs, and while another launch is being set up", async () => {
    const slot = new SwarmSlot<string>();
    const setUp = deferred();
    const first = slot.claim(async () => {
      await setUp.promise;
      slot.hold("a", "swarm a", new Promise(() => undefined));
    });
    await assert.rejects(
      slot.claim(async () => "b"),
      refusedAsRunning,
    );
    setUp.resolve();
    await first;
    assert.equal(slot.get("a"), "swarm a");
    await assert.rejects(
      slot.claim(async () => "b"),
      refusedAsRunning,
    );
  });

  it("waits for a swarm that announced its end to close, then launches", async () => {
    const slot = new SwarmSlot<string>();
    const closing = deferred();
    await slot.claim(async () => slot.hold("a", "swarm a", closing.promise));
    slot.announceEnd("a");
    const order: string[] = [];
    const next = slot.claim(async () => {
      order.push("b begins");
      return "b";
    });
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(order.length, 0, "b waits while a closes");
    assert.equal(slot.has("a"), true, "a still holds the slot while it closes");
    order.push("a closed");
    closing.resolve();
    assert.equal(await next, "b");
    assert.deepEqual(order, ["a closed", "b begins"]);
    assert.equal(slot.has("a"), false);
  });

  it("frees the slot when a swarm fails, and a later launch goes ahead", async () => {
    const slot = new SwarmSlot<string>();
    const closing = deferred();
    await slot.claim(async () => slot.hold("a", "swarm a", closing.promise));
    closing.reject(new Error("the model went away"));
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(slot.has("a"), false);
    assert.equal(await slot.claim(async () => "b"), "b");
  });

  it("refuses a second launch while the first waits for a closing swarm", async () => {
    const slot = new SwarmSlot<string>();
    const closing = deferred();
    await slot.claim(async () => slot.hold("a", "swarm a", closing.promise));
    slot.announceEnd("a");
    const next = slot.claim(async () => "b");
    await assert.rejects(
      slot.claim(async () => "c"),
      refusedAsRunning,
    );
    closing.resolve();
    assert.equal(await next, "b");
  });

  it("refuses, with what to do, when a swarm that said it ended does not close within the wait", async () => {
    const slot = new SwarmSlot<string>(50);
    await slot.claim(async () => slot.hold("a", "swarm a", new Promise(() => undefined)));
    slot.announceEnd("a");
    await assert.rejects(
      slot.claim(async () => "b"),
      (error: unknown) =>
        error instanceof HandlerError &&
        error.code === "swarm-closing" &&
        /Swarm a ended but is still closing .* after 0\.05 s; launch again in a moment, or run Swarmboard: Restart Worker/.test(
          error.message,
        ),
    );
    // The refused launch let go: the next one waits (and is refused) the same way, not as "already starting".
    await assert.rejects(
      slot.claim(async () => "c"),
      (error: unknown) => error instanceof HandlerError && error.code === "swarm-closing",
    );
  });
});
