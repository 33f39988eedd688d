// How many of a swarm's planned agents may write (each may make a worktree of its own): what the launch's disk
// estimate counts. Readers (researchers, synthesists) share one view and count for none.
import assert from "node:assert/strict";
import { builtinRecipes } from "../../../src/core/recipeCatalog";
import { planSeats, seatAccess, writingSeats } from "../../../src/worker/swarm/seatPlan";

describe("writing seats", () => {
  it("counts no writer in a research swarm of 8 and every worker of an organisation swarm", () => {
    const research = planSeats(builtinRecipes().get("research")!, 8);
    assert.equal(research.stages.flat().length, 8);
    assert.equal(writingSeats(research), 0);
    const organization = planSeats(builtinRecipes().get("organization")!, 6);
    assert.equal(writingSeats(organization), 6, "six workers; the synthesist only reads");
    assert.equal(seatAccess(organization.synthesist!.tools), "reader");
    assert.equal(seatAccess(organization.stages.flat()[0]!.tools), "writer");
  });
});
