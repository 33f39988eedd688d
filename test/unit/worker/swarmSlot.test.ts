// The worker's table of swarms: a launch goes ahead beside a running swarm, waits for a set-up under way (one at a
// time, so the second finds the first's pool), and waits for a swarm that has announced its end but is still closing. The closing here is a promise the test settles by hand, so
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

describe("worker: the swarm slot", () => {
  it("launches beside a running swarm, after the set-up under way", async () => {
    const slot = new SwarmSlot<string>();
    const setUp = deferred();
    const order: string[] = [];
    const first = slot.claim(async () => {
      await setUp.promise;
      order.push("a set up");
      slot.hold("a", "swarm a", new Promise(() => undefined));
    });
    const second = slot.claim(async () => {
      order.push("b begins");
      slot.hold("b", "swarm b", new Promise(() => undefined));
    });
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(order, [], "b waits for a's set-up");
    setUp.resolve();
    await Promise.all([first, second]);
    assert.deepEqual(order, ["a set up", "b begins"]);
    assert.deepEqual(slot.ids(), ["a", "b"], "both run");
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

  it("a failed set-up does not hold up the next launch", async () => {
    const slot = new SwarmSlot<string>();
    await assert.rejects(
      slot.claim(async () => {
        throw new Error("no model");
      }),
      /no model/,
    );
    assert.equal(await slot.claim(async () => "b"), "b");
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
    // The refused launch let go: the next one waits (and is refused) the same way.
    await assert.rejects(
      slot.claim(async () => "c"),
      (error: unknown) => error instanceof HandlerError && error.code === "swarm-closing",
    );
  });
});
