import { strict as assert } from "assert";
import { AgentLoop } from "../../../src/core/agentLoop";
import { MemoryBoardStore } from "../../../src/core/boardStore";
import { ProgressGuard } from "../../../src/core/progressGuard";
import { SwarmBoard } from "../../../src/core/swarmBoard";

async function setup() {
  const swarm = new SwarmBoard({ store: new MemoryBoardStore(), visibility: "shared", leaseMs: 1000 });
  swarm.join("w1");
  const loop = new AgentLoop("w1");
  loop.send("gathered", 0);
  const claim = await swarm.claim("w1", { taskId: "t1" }, "t1", 0);
  assert.ok(claim.granted);
  loop.send("claimGranted", 0);
  return { swarm, loop, guard: new ProgressGuard({ noProgressSteps: 2, repeatLimit: 10 }) };
}

const idle = (n: number) => ({ toolCall: { name: "read_file", args: { path: `f${n}` } } });

describe("progress guard", () => {
  it("renews the claim on progress", async () => {
    const { swarm, loop, guard } = await setup();
    await guard.afterStep(swarm, loop, { progress: { diff: true } }, 900);
    assert.equal(swarm.claims.active(1500).length, 1, "renewed at 900: alive until 1900");
  });

  it("nudges, then releases the claim and stalls the loop, then fails it with the reason", async () => {
    const { swarm, loop, guard } = await setup();
    await guard.afterStep(swarm, loop, idle(1), 1);
    const nudge = await guard.afterStep(swarm, loop, idle(2), 2);
    assert.equal(nudge.verdict.action, "nudge");
    assert.match(nudge.nudge ?? "", /^Watchdog: no new finding, diff or test change in 2 steps/);
    assert.equal(loop.state, "act");

    await guard.afterStep(swarm, loop, idle(3), 3);
    const release = await guard.afterStep(swarm, loop, idle(4), 4);
    assert.equal(release.verdict.action, "releaseClaim");
    assert.equal(release.event?.to, "stalled");
    assert.equal(swarm.claims.active(5).length, 0);
    assert.equal(swarm.board.entries().at(-1)?.kind, "RELEASE");

    loop.send("resume", 5);
    await guard.afterStep(swarm, loop, idle(5), 6);
    const stop = await guard.afterStep(swarm, loop, idle(6), 7);
    assert.equal(stop.verdict.action, "stop");
    assert.equal(loop.state, "failed");
    assert.match(loop.current.endReason ?? "", /^watchdog: no new finding/);
  });

  it("refuses bad watchdog options at construction", () => {
    assert.throws(() => new ProgressGuard({ noProgressSteps: 0, repeatLimit: 1 }), /noProgressSteps/);
  });
});
