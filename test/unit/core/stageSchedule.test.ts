import { strict as assert } from "assert";
import { runStageGraph } from "../../../src/core/stageSchedule";
import { stageInputText } from "../../../src/core/stageInputs";
import type { BoardEntry } from "../../../src/protocol/board";

const stage = (name: string, after: number[] = []) => ({ name, roles: [name], after });

/** A stage run that records its start and end and finishes when the test releases it. */
function controlledRuns() {
  const log: string[] = [];
  const release = new Map<number, () => void>();
  const run = (i: number, before: readonly string[]) => {
    log.push(`start ${i} after [${before.join(",")}]`);
    return new Promise<string>((resolve) => release.set(i, () => (log.push(`end ${i}`), resolve(`out${i}`))));
  };
  const tick = () => new Promise((r) => setImmediate(r));
  return { log, run, release: async (i: number) => (release.get(i)!(), await tick()), tick };
}

describe("stage schedule", () => {
  it("starts a stage as soon as what it waits for is done, not when a whole wave is", async () => {
    const plan = [stage("quick"), stage("slow"), stage("deep", [0]), stage("join", [1, 2])];
    const c = controlledRuns();
    const done = runStageGraph(plan, c.run, () => true);
    await c.tick();
    assert.deepEqual(c.log, ["start 0 after []", "start 1 after []"]);
    await c.release(0);
    assert.deepEqual(c.log.slice(2), ["end 0", "start 2 after [out0]"], "deep starts while slow still runs");
    await c.release(2);
    assert.ok(!c.log.some((l) => l.startsWith("start 3")), "join waits for slow");
    await c.release(1);
    assert.deepEqual(c.log.slice(-2), ["end 1", "start 3 after [out1,out2]"], "join reads both inputs in order");
    await c.release(3);
    assert.deepEqual(await done, ["out0", "out1", "out2", "out3"]);
  });

  it("skips the stages that would start after mayStart says no, and what comes after them", async () => {
    const plan = [stage("a"), stage("b", [0]), stage("c", [1])];
    let open = true;
    const c = controlledRuns();
    const done = runStageGraph(plan, c.run, () => open);
    await c.tick();
    open = false;
    await c.release(0);
    assert.deepEqual(await done, ["out0", undefined, undefined]);
  });

  it("rethrows a stage's failure once the other branches have settled", async () => {
    const plan = [stage("bad"), stage("other"), stage("after-bad", [0])];
    let otherEnded = false;
    const run = async (i: number) => {
      if (i === 0) throw new Error("stage bad broke");
      await new Promise((r) => setTimeout(r, 20));
      otherEnded = true;
      return i;
    };
    await assert.rejects(
      runStageGraph(plan, run, () => true),
      /stage bad broke/,
    );
    assert.ok(otherEnded, "the independent branch ran to its end first");
  });
});

describe("stage inputs", () => {
  const finding = (author: string, text: string, line?: number): BoardEntry =>
    ({
      id: `${author}-1`,
      kind: "FACT",
      author,
      time: 1,
      text,
      scope: {},
      refs: line ? [{ path: "src/a.ts", line }] : [],
    }) as unknown as BoardEntry;

  it("lists each stage's agents with their summaries and findings", () => {
    const text = stageInputText(
      [
        {
          stage: "scout",
          agents: [{ id: "agent-1", role: "scout", summary: "mapped the parser" }],
          findings: [finding("agent-1", "the parser is in src/a.ts", 3), finding("agent-4", "its sub-agent's fact")],
        },
      ],
      10_000,
    );
    assert.equal(
      text,
      [
        "Your input, what the stages before yours left:",
        "Stage scout:",
        "- agent-1 (scout) ended: mapped the parser",
        "- FACT by agent-1 (src/a.ts:3): the parser is in src/a.ts",
        "- FACT by agent-4: its sub-agent's fact",
      ].join("\n"),
    );
    assert.equal(stageInputText([], 100), "", "a first stage has no input");
  });

  it("cuts the oldest lines to fit and says how many and where they are", () => {
    const output = {
      stage: "s",
      agents: [{ id: "agent-1", role: "r", summary: "x".repeat(50) }],
      findings: [finding("agent-1", "newest")],
    };
    const text = stageInputText([output], 40);
    assert.match(text, /\(2 earlier lines cut to fit your share of the context; grep_board has them\)/);
    assert.ok(text.endsWith("- FACT by agent-1: newest"));
  });
});
