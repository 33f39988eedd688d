// The roster, both views: the planned one the trunk carries (roles from the recipe, first tasks from the open
// tasks) and the live one the `roster` tool reads from the board's claims.
import { strict as assert } from "assert";
import { MemoryBoardStore } from "../../../src/core/boardStore";
import { builtinRecipes } from "../../../src/core/recipeCatalog";
import { plannedRoster, roleSummary, rosterLines } from "../../../src/core/roster";
import { SwarmBoard } from "../../../src/core/swarmBoard";
import { renderRoster } from "../../../src/core/trunkPrompt";
import type { Role } from "../../../src/protocol/recipe";

const fixer: Role = {
  name: "fixer",
  count: 2,
  tools: ["claim"],
  instructions: "Claim one failing test. Find the cause, fix the code.",
};
const synthesist: Role = { name: "synthesist", count: 1, tools: [], instructions: "Write one report! Nothing else." };

describe("planned roster (the trunk's)", () => {
  it("says what each role covers, in the first sentence of its instructions", () => {
    assert.equal(roleSummary(fixer), "Claim one failing test.");
    assert.equal(roleSummary({ ...fixer, instructions: "no full stop here" }), "no full stop here");
  });

  it("gives each seat a first task when the tasks go round, and lists the synthesist last", () => {
    const roster = plannedRoster({
      seats: [
        { id: "agent-1", role: fixer },
        { id: "agent-2", role: fixer },
      ],
      synthesist,
      tasks: [
        { id: "t-a", title: "test a fails" },
        { id: "t-b", title: "test b fails" },
        { id: "t-c", title: "test c fails" },
      ],
    });
    assert.equal(
      renderRoster(roster),
      [
        "- agent-1 [fixer]: Claim one failing test. Work: first suggested task: [t-a] test a fails (claim it, or another open task if it is taken).",
        "- agent-2 [fixer]: Claim one failing test. Work: first suggested task: [t-b] test b fails (claim it, or another open task if it is taken).",
        "- synthesist [synthesist]: Write one report! Forked last, to fan in.",
      ].join("\n"),
    );
  });

  it("has seats claim angles of the goal when there are fewer tasks than seats (a research swarm)", () => {
    const research = builtinRecipes().get("research")!;
    const researcher = research.roles.find((r) => r.name === "researcher")!;
    const seats = [1, 2, 3].map((i) => ({ id: `agent-${i}`, role: researcher }));
    const roster = plannedRoster({ seats, tasks: [{ id: "goal-1", title: "the question" }] });
    assert.equal(roster.length, 3);
    for (const entry of roster) {
      assert.equal(entry.role, "researcher");
      assert.equal(
        entry.covers,
        "Investigate one angle of the goal. Work: claims one of the 1 open task(s) or an angle of the goal, named in its claim.",
      );
    }
    assert.match(
      plannedRoster({ seats, tasks: [] })[0]!.covers,
      /Work: claims an angle of the goal, named in its claim\.$/,
    );
  });
});

describe("live roster (the roster tool's)", () => {
  it("renders one line per agent, sorted, with its claims or no claim", () => {
    assert.deepEqual(
      rosterLines([
        { agent: "agent-2", role: "researcher", claims: [] },
        {
          agent: "agent-1",
          role: "researcher",
          claims: [{ claimId: "agent-1-1", scope: "task angle: licensing", text: "who may\n ship it" }],
        },
        { agent: "agent-9", claims: [{ claimId: "agent-9-1", scope: "src/a.ts", text: "left over" }] },
      ]),
      [
        "agent-1 [researcher] holds task angle: licensing (agent-1-1): who may ship it",
        "agent-2 [researcher]: no claim",
        "agent-9 holds src/a.ts (agent-9-1): left over",
      ],
    );
  });

  it("follows the board: a claim shows with its words, a release takes it off, a leaver goes", async () => {
    const board = new SwarmBoard({ store: new MemoryBoardStore(), visibility: "private-pads", leaseMs: 1000 });
    board.join("agent-1", { isSynthesist: false, name: "researcher" });
    board.join("agent-2", { isSynthesist: false, name: "researcher" });
    assert.deepEqual(board.rosterText(0), ["agent-1 [researcher]: no claim", "agent-2 [researcher]: no claim"]);
    const claim = await board.claim("agent-1", { taskId: "angle: performance" }, "measure it on two machines", 1);
    assert.ok(claim.granted);
    assert.deepEqual(board.rosterText(2), [
      "agent-1 [researcher] holds task angle: performance (agent-1-1): measure it on two machines",
      "agent-2 [researcher]: no claim",
    ]);
    assert.deepEqual(
      board.rosterText(5000),
      ["agent-1 [researcher]: no claim", "agent-2 [researcher]: no claim"],
      "an expired lease is not held",
    );
    await board.release(claim.lease.claimId, "done", 3);
    board.leave("agent-2");
    assert.deepEqual(board.rosterText(4), ["agent-1 [researcher]: no claim"]);
  });
});
