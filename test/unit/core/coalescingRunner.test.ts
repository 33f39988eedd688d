import assert from "node:assert/strict";
import { CoalescingRunner } from "../../../src/core/coalescingRunner";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `cond` holds (the limit only turns a broken runner into a clear failure). */
async function until(what: string, cond: () => boolean): Promise<void> {
  for (let waited = 0; !cond(); waited += 5) {
    if (waited > 10_000) assert.fail(`gave up waiting for ${what}`);
    await sleep(5);
  }
}

/** A job that records its runs and can be held open until released. */
function recordingJob() {
  const runs: number[] = [];
  let release: (() => void) | undefined;
  let hold = false;
  const job = async () => {
    runs.push(Date.now());
    if (hold) await new Promise<void>((r) => (release = r));
  };
  return {
    runs,
    job,
    holdNext: () => (hold = true),
    release: () => {
      hold = false;
      release?.();
    },
  };
}

describe("core: the coalescing runner (tests after a burst of saves)", () => {
  it("runs once for a burst of pokes, after the last one has gone quiet", async () => {
    const rec = recordingJob();
    // The quiet time is far longer than the gaps between pokes, so a slow machine cannot split the burst.
    const runner = new CoalescingRunner(300, rec.job, (e) => assert.fail(e));
    let lastPoke = 0;
    for (let i = 0; i < 5; i++) {
      runner.poke();
      lastPoke = Date.now();
      await sleep(10);
    }
    await until("the run", () => rec.runs.length > 0);
    await sleep(350);
    assert.equal(rec.runs.length, 1, "one run for five saves");
    assert.ok(rec.runs[0]! - lastPoke >= 295, "not before the burst went quiet");
    await runner.close();
  });

  it("asks for exactly one more run when pokes come during a run", async () => {
    const rec = recordingJob();
    const runner = new CoalescingRunner(10, rec.job, (e) => assert.fail(e));
    rec.holdNext();
    runner.poke();
    await until("the first run to start", () => rec.runs.length === 1);
    for (let i = 0; i < 3; i++) {
      runner.poke();
      await sleep(20);
    }
    assert.equal(rec.runs.length, 1, "no second run while the first is in progress");
    rec.release();
    await until("the second run", () => rec.runs.length === 2);
    await sleep(60);
    assert.equal(rec.runs.length, 2, "one more run after it, for all three pokes");
    await runner.close();
  });

  it("reports a failed run and runs again at the next poke; after close, nothing runs", async () => {
    const errors: string[] = [];
    let calls = 0;
    const runner = new CoalescingRunner(
      5,
      async () => {
        calls++;
        if (calls === 1) throw new Error("sandbox missing");
      },
      (e) => errors.push(e.message),
    );
    runner.poke();
    await until("the failed run reported", () => errors.length === 1);
    runner.poke();
    await until("the second run", () => calls === 2);
    assert.deepEqual(errors, ["sandbox missing"]);
    await runner.close();
    runner.poke();
    await sleep(30);
    assert.equal(calls, 2, "a closed runner starts nothing");
  });
});
