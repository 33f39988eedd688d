// grep_board's patterns come from the model, and the shared worker runs every swarm in one event loop: a pattern
// that backtracks without end must be stopped at a time limit and come back as a tool error, while plain patterns
// find exactly what the plain match finds. A real board and the real tool dispatch, as an agent calls grep_board.
import { strict as assert } from "assert";
import { MemoryBoardStore } from "../../../src/core/boardStore";
import { SwarmBoard } from "../../../src/core/swarmBoard";
import { dispatchCall } from "../../../src/worker/agent/callDispatch";
import { toolsForRole } from "../../../src/worker/agent/toolCatalog";
import { timedTextMatch } from "../../../src/worker/swarm/timedTextMatch";

const role = { name: "worker", count: 1, instructions: "work", tools: ["grep_board", "post_finding"] };
const limitMs = 300;

/** Two boards with the same 500 findings: one with the worker's timed match, one with the plain match. */
async function boards(): Promise<{ timed: SwarmBoard; plain: SwarmBoard }> {
  const timed = new SwarmBoard({
    store: new MemoryBoardStore(),
    visibility: "shared",
    leaseMs: 1000,
    textMatch: timedTextMatch(limitMs),
  });
  const plain = new SwarmBoard({ store: new MemoryBoardStore(), visibility: "shared", leaseMs: 1000 });
  for (const board of [timed, plain]) {
    board.join("a1");
    for (let i = 0; i < 500; i++) {
      const text =
        i % 7 === 0 ? `median of ${i} values sorts as strings` : `finding ${i}: ${"a".repeat(30 + (i % 20))}!`;
      await board.postFinding({ author: "a1", kind: i % 2 ? "FACT" : "OBSERVED", text, time: i });
    }
  }
  return { timed, plain };
}

describe("grep_board's time limit on agents' patterns", function () {
  const tools = toolsForRole(role, false);

  it("finds exactly what the plain match finds, for plain patterns", async () => {
    const { timed, plain } = await boards();
    for (const query of [{ regex: "median" }, { regex: "^finding 4\\d:" }, { regex: "STRINGS", kind: "FACT" as const }])
      assert.deepEqual(
        timed.grep("a1", { ...query, limit: 1000 }).map((e) => e.id),
        plain.grep("a1", { ...query, limit: 1000 }).map((e) => e.id),
        JSON.stringify(query),
      );
    assert.equal(timed.grep("a1", { regex: "median", limit: 1000 }).length, 72);
  });

  it("stops a pattern that backtracks without end at its limit, as a tool error that says so", async () => {
    const { timed } = await boards();
    const ctx = { agent: "a1", board: timed, now: () => 1 };
    const started = Date.now();
    const outcome = await dispatchCall(ctx, tools, "grep_board", JSON.stringify({ regex: "(a+)+$" }));
    const took = Date.now() - started;
    assert.equal(outcome.ok, false);
    assert.match(outcome.error ?? "", /grep_board: the regex "\(a\+\)\+\$" ran past 300 ms on 500 entries/);
    assert.match(outcome.error ?? "", /search plain words or a simpler pattern/);
    assert.ok(took < limitMs + 1500, `stopped near its limit (${took} ms)`);
    // The board answers the next query as before.
    const next = await dispatchCall(ctx, tools, "grep_board", JSON.stringify({ regex: "median" }));
    assert.ok(next.ok, next.error);
    assert.equal(next.summary, "grep_board: 50 entries");
  });
});
