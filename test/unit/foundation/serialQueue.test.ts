// Work queued one piece at a time: the second starts only after the first settled, and a failure stays with its
// caller (the next piece still runs).
import assert from "node:assert/strict";
import { SerialQueue } from "../../../src/core/serialQueue";

describe("foundation: the serial queue", () => {
  it("starts each piece after the one before it has settled, in order", async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const piece = (name: string, ms: number) =>
      queue.run(async () => {
        log.push(`${name} starts`);
        await new Promise((r) => setTimeout(r, ms));
        log.push(`${name} ends`);
        return name;
      });
    const results = await Promise.all([piece("a", 30), piece("b", 1), piece("c", 10)]);
    assert.deepEqual(results, ["a", "b", "c"]);
    assert.deepEqual(log, ["a starts", "a ends", "b starts", "b ends", "c starts", "c ends"]);
  });

  it("rejects a failing piece to its caller only, and runs the next", async () => {
    const queue = new SerialQueue();
    const failing = queue.run(async () => {
      throw new Error("the fork failed");
    });
    const next = queue.run(async () => "forked");
    await assert.rejects(failing, /the fork failed/);
    assert.equal(await next, "forked");
  });

  it("says when everything queued so far has settled, failures included", async () => {
    const queue = new SerialQueue();
    const done: string[] = [];
    void queue.run(async () => {
      await new Promise((r) => setTimeout(r, 20));
      done.push("written");
    });
    queue.run(async () => Promise.reject(new Error("disk full"))).catch(() => done.push("refused"));
    await queue.settled();
    assert.deepEqual(done, ["written", "refused"]);
  });
});
