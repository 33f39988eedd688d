// Swarms with caps on one pool sized for several (stories260K, real runtime, through the local engine): the first
// swarm on a pool sized for two gets half of it as its cap, a second launched with its own cap joins the same
// context and both swarms' agents step in one `llama_decode` per step, a third asking more than is left is refused
// with the numbers, and an agent whose swarm reaches its cap is paused with a kv-full that names the cap.
import assert from "node:assert/strict";
import type { KvFullEvent } from "../../src/protocol/runtime";
import { openEngine } from "../../src/runtime/engines";
import type { OpenedTrunk, SwarmEngine } from "../../src/runtime/port/engine";
import type { TrunkRequest } from "../../src/runtime/port/engineShapes";
import { RuntimeOwner } from "../../src/runtime/runtimeOwner";
import { SwarmRuntimeError } from "../../src/runtime/runtimeErrors";
import { sharedModelPath, storyTrunk } from "./runtimeTestModels";

describe("swarms with caps on one pool sized for several (stories260K)", () => {
  let owner: RuntimeOwner;
  let engine: SwarmEngine;
  let poolsSized = 0;
  const opened: OpenedTrunk[] = [];
  const sizePool = async () => {
    poolsSized++;
    return { cells: 2048, origin: "the test" };
  };
  const request = (swarmId: string, cellCap?: number): TrunkRequest => ({
    shape: { model: engine.model, maxAgents: 2, threads: 1, kvCacheType: undefined, caps: [2048] },
    stateFile: undefined,
    swarmId,
    poolSwarms: 2,
    ...(cellCap === undefined ? {} : { cellCap }),
  });
  const open = async (tokens: Parameters<SwarmEngine["openTrunk"]>[0], swarmId: string, cellCap?: number) => {
    const trunk = await engine.openTrunk(tokens, request(swarmId, cellCap), sizePool);
    opened.push(trunk);
    return trunk;
  };

  before(async () => {
    owner = new RuntimeOwner();
    engine = await openEngine({ kind: "local" }, { modelPath: sharedModelPath("stories260K.gguf"), threads: 1 }, owner);
  });
  after(async () => {
    for (const trunk of opened) await trunk.context.dispose();
    await owner.dispose();
  });

  it("shares one context among capped swarms, refuses one over what is left, and pauses a swarm at its cap", async () => {
    const tokens = engine.model.tokenize(storyTrunk);
    const a = await open(tokens, "swarm-a");
    const aTrunk = a.context.stats().usedCells;
    assert.deepEqual(a.context.stats().share, { swarms: 1, capCells: 1024, usedCells: aTrunk }, "a fair half");
    const longer = [...tokens, ...engine.model.tokenize(" She ran to get it and threw it high.")];
    const b = await open(longer, "swarm-b", 300);
    assert.equal(poolsSized, 1, "the second swarm is on the first one's pool");
    assert.equal(b.context.poolCells, a.context.poolCells);
    assert.equal(b.context.stats().share?.capCells, 300);
    assert.equal(a.context.stats().share?.swarms, 2);

    // One dispatch per step with a row of each swarm.
    const [agentA, agentB] = [await a.context.fork("agent-1"), await b.context.fork("agent-1")];
    const before = a.context.stats();
    await Promise.all([agentA.generate({ maxTokens: 8 }), agentB.generate({ maxTokens: 8 })]);
    const after = a.context.stats();
    assert.equal(after.dispatches - before.dispatches, 8, "one llama_decode per step for both swarms");
    assert.equal(after.dispatchedTokens - before.dispatchedTokens, 16, "a row of each swarm in each");

    // Kept for the two caps: what a third may have is the free cells less what is left of them.
    const room = 2048 - a.context.stats().usedCells - (1024 - a.context.stats().share!.usedCells);
    const keptForB = 300 - b.context.stats().share!.usedCells;
    await assert.rejects(open(tokens, "swarm-c", 5000), (error: unknown) => {
      assert.ok(error instanceof SwarmRuntimeError && error.code === "pool-full", String(error));
      assert.match(error.message, /beside the 2 running on this model's pool: it needs 5,000 KV cells and 4 sequences/);
      // Each holds its whole cap: what it wrote, what its agent was promised at fork and has not written (64 - 8 =
      // 56 cells), and the rest of its cap.
      const held = (label: string) => {
        const pattern = `${label} \\(([\\d,]+) cells written, ([\\d,]+) promised to its agents, ([\\d,]+) more kept for its cap; 4 sequences\\)`;
        const parts = new RegExp(pattern).exec(error.message);
        assert.ok(parts, `${label} in: ${error.message}`);
        return parts.slice(1).map((n) => Number(n.replace(/,/g, "")));
      };
      const [aHeld, bHeld] = [held("swarm-a"), held("swarm-b")];
      assert.deepEqual([aHeld[1], bHeld[1]], [56, 56], "one agent's promise each");
      assert.equal(aHeld[0]! + aHeld[1]! + aHeld[2]!, 1024, `swarm-a's cap: ${aHeld.join(" + ")}`);
      assert.equal(bHeld[0]! + bHeld[1]! + bHeld[2]!, 300, `swarm-b's cap: ${bHeld.join(" + ")}`);
      assert.equal(bHeld[0], b.context.stats().share?.usedCells);
      // Promises of the agents' expected tails are not free either; the number is at most the cells not held.
      const free = Number(/the pool has ([\d,]+) of 2,048 cells/.exec(error.message)?.[1]?.replace(/,/g, ""));
      assert.ok(free <= room - keptForB, `${free} cells said free, ${room - keptForB} not held for a cap`);
      assert.match(error.message, /--pool-share/);
      return true;
    });

    // Swarm b's agent runs into b's cap while the pool has room: the kv-full says which cap and how to raise it.
    const events: KvFullEvent[] = [];
    b.context.onKvFull((event) => events.push(event));
    // Forced tokens, so that no end of story stops it before the cap.
    const forcedTokens = engine.model.tokenize(" and the ball".repeat(200)).slice(0, 590);
    const result = await agentB.generate({ maxTokens: 590, forcedTokens });
    assert.equal(result.stopReason, "kv-full");
    assert.equal(b.context.stats().share?.usedCells, 300, "it wrote up to its cap");
    assert.ok(a.context.stats().freeCells > 300, "the pool itself still had room");
    const full = events.at(-1);
    assert.ok(full !== undefined, "a kv-full event");
    assert.equal(full.agentId, "agent-1");
    assert.match(full.message, /Its swarm reached its cap of 300 KV cells on the pool it shares/);
    assert.match(full.message, /--pool-share \/ swarmboard\.poolShareCells/);
  });
});
