// How the step barrier shares a dispatch's rows (stepBarrier.ts): every participant gets a row each step, small
// wants are met in full, and what is left of the batch is split among the long decodes, never more than it holds.
import assert from "node:assert/strict";
import fc from "fast-check";
import { grantRows, StepBarrier } from "../../../src/runtime/local/stepBarrier";

describe("the step barrier's grants", () => {
  it("gives agents their row and the rest of the batch to a trunk", () => {
    assert.deepEqual(grantRows([1, 1, 3000], 512), [1, 1, 510]);
    assert.deepEqual(grantRows([3000], 512), [512]);
    assert.deepEqual(grantRows([1000, 1, 1000, 1000, 1000], 512), [127, 1, 128, 128, 128]);
  });

  it("never grants more than the batch (when every participant fits a row), nor less than a row or the want", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 64 }), (wanted) => {
        const grants = grantRows(wanted, 512);
        assert.ok(grants.reduce((sum, grant) => sum + grant, 0) <= 512);
        grants.forEach((grant, i) => assert.ok(grant >= 1 && grant <= wanted[i]!));
        // A want at most an even share of the batch is met in full.
        wanted.forEach((want, i) => want <= Math.floor(512 / wanted.length) && assert.equal(grants[i], want));
      }),
    );
  });

  it("releases a step when every participant has arrived, each with its grant", async () => {
    const barrier = new StepBarrier(512);
    barrier.join();
    barrier.join();
    const [agent, trunk] = [barrier.arrive(), barrier.arrive(2000)];
    assert.deepEqual(await Promise.all([agent, trunk]), [1, 511]);
  });
});
