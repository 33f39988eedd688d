import { strict as assert } from "assert";
import { BackgroundByParent, BackgroundSubagents } from "../../../src/worker/agent/backgroundSubagents";
import { controlTools } from "../../../src/worker/agent/tools/controlTools";
import type { SubagentOutcome } from "../../../src/worker/agent/tools/toolContext";

function deferred() {
  let resolve!: (o: SubagentOutcome) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<SubagentOutcome>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}
const tick = () => new Promise((r) => setImmediate(r));
const tool = (name: string) => controlTools.find((t) => t.name === name)!;

describe("sub-agents in the background", () => {
  it("hands each outcome over once, after its sub-agent ended, and a failure as a failed outcome", async () => {
    const bg = new BackgroundSubagents();
    const a = deferred();
    const b = deferred();
    bg.add("agent-5", a.promise);
    bg.add("agent-6", b.promise);
    assert.equal(bg.runningCount, 2);
    assert.deepEqual(bg.takeEnded(), [], "nothing ended yet");
    a.resolve({ agentId: "agent-5", summary: "done", findings: [{ kind: "FACT", text: "x" }] });
    await tick();
    assert.deepEqual(
      bg.takeEnded().map((o) => o.agentId),
      ["agent-5"],
    );
    assert.deepEqual(bg.takeEnded(), [], "taken once");
    b.reject(new Error("kv-full"));
    assert.deepEqual(await bg.collect(), [{ agentId: "agent-6", summary: "failed: kv-full", findings: [] }]);
    assert.equal(bg.runningCount, 0);
  });

  it("keeps each parent's sub-agents apart, and a parent's end waits for its own", async () => {
    const byParent = new BackgroundByParent();
    const child = deferred();
    byParent.of("agent-1").add("agent-3", child.promise);
    byParent.of("agent-2").add("agent-4", new Promise(() => undefined));
    let settled = false;
    const ending = byParent.settle("agent-1").then(() => (settled = true));
    await tick();
    assert.ok(!settled, "agent-1's end waits for agent-3");
    child.resolve({ agentId: "agent-3", summary: "done", findings: [] });
    await ending;
    assert.equal(byParent.of("agent-1").runningCount, 0, "forgotten after its end");
    assert.equal(byParent.of("agent-2").runningCount, 1, "another parent's sub-agent is its own");
  });

  it("spawn_subagent with wait false returns at once; collect_subagents waits for the rest", async () => {
    const bg = new BackgroundSubagents();
    const child = deferred();
    const ctx = {
      spawnSubagent: async (task: string, wait: boolean) => {
        assert.equal(wait, false);
        bg.add("agent-5", child.promise);
        return { agentId: "agent-5", summary: `started: ${task}`, findings: [], running: true };
      },
      collectSubagents: () => bg.collect(),
    };
    const spawned = await tool("spawn_subagent").call(ctx, { task: "look", wait: false });
    assert.equal(spawned.summary, "sub-agent agent-5 started in the background");
    const collecting = tool("collect_subagents").call(ctx, {});
    let collected = false;
    void collecting.then(() => (collected = true));
    await tick();
    assert.ok(!collected, "collect waits while the sub-agent runs");
    child.resolve({ agentId: "agent-5", summary: "found it", findings: [{ kind: "FACT", text: "y" }] });
    const outcome = await collecting;
    assert.equal(outcome.summary, "collected 1 sub-agent(s): agent-5");
    assert.deepEqual(outcome.progress, { finding: true });
    assert.deepEqual((outcome.result as { subagents: SubagentOutcome[] }).subagents[0]?.summary, "found it");
  });

  it("waits by default (the call's result is the sub-agent's outcome), and refuses past the depth limit", async () => {
    const waited = await tool("spawn_subagent").call(
      { spawnSubagent: async (_t: string, wait: boolean) => ({ agentId: "a", summary: `wait=${wait}`, findings: [] }) },
      { task: "look" },
    );
    assert.equal(waited.summary, "sub-agent a: wait=true");
    const refused = await tool("collect_subagents").call({}, {});
    assert.match(refused.error ?? "", /depth limit/);
  });
});
