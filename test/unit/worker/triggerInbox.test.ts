// The trigger inbox on a real file: every trigger is logged (fsynced) before it is acted on, a torn last line is
// dropped on reopen, a replayed id is not taken twice, and a restart gives back what the router had not decided
// and what was assigned to a worker that never ended.
import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defaultTriggerRules } from "../../../src/core/triggerFastPath";
import type { Trigger } from "../../../src/protocol/triggers";
import { TriggerInbox } from "../../../src/worker/standing/triggerInbox";
import { TriggerLogFile } from "../../../src/worker/standing/triggerLog";

async function open(file: string) {
  const log = await TriggerLogFile.open(file);
  const inbox = new TriggerInbox(log, defaultTriggerRules, () => 1_000);
  const recovered = inbox.restore();
  const routed: string[] = [];
  const delivered: string[] = [];
  inbox.connect({
    deliver: async (agent, t) => void delivered.push(`${t.id}->${agent}`),
    toRouter: (t: Trigger) => void routed.push(t.id),
    taken: () => undefined,
  });
  return { log, inbox, recovered, routed, delivered };
}

describe("worker: the trigger inbox", () => {
  it("logs before acting, keeps ids across a replay, drops a torn line, and recovers undecided work", async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "swarmboard-triggers-")), "triggers.jsonl");
    const first = await open(file);
    await assert.rejects(first.inbox.take({ source: "nope", text: "x" }), /not a trigger: .*source/);
    const a = await first.inbox.take({ id: "a", source: "test-failure", test: "t1", path: "src/a.js", text: "fails" });
    const b = await first.inbox.take({ id: "b", source: "diagnostic", path: "src/b.ts", text: "TS1" });
    const c = await first.inbox.take({ id: "c", source: "diagnostic", path: "src/a.js", text: "TS2" });
    assert.deepEqual([a.route.route, b.route.route, c.route.route], ["router", "router", "parked"]);
    assert.deepEqual(first.routed, ["a", "b"]);
    await first.inbox.record({
      kind: "decision",
      triggerId: "a",
      by: "agent-1",
      time: 2,
      decision: { action: "assign", task: "fix t1" },
    });
    await first.inbox.record({ kind: "worker", thread: "a", agentId: "agent-7", time: 3, state: "started" });
    await first.log.close();
    appendFileSync(file, '{"kind":"trigger","trig'); // a crash mid-write

    const second = await open(file);
    assert.ok(second.log.droppedBytes > 0, "the torn line was cut");
    assert.deepEqual(
      second.recovered.forRouter.map((t) => t.id),
      ["b"],
      "b was never decided: the router gets it again",
    );
    assert.deepEqual(
      second.recovered.toAssign.map((j) => [j.trigger.id, j.task]),
      [["a", "fix t1"]],
    );
    assert.equal(second.recovered.lastAgentNumber, 7);
    const again = await second.inbox.take({ id: "a", source: "test-failure", test: "t1", text: "fails" });
    assert.equal(again.duplicate, true, "a replayed id is not taken twice");
    assert.deepEqual(await second.inbox.handOver("a", "agent-8", true), [c.trigger], "the parked follow-up waited");
    const d = await second.inbox.take({ id: "d", source: "diagnostic", path: "src/a.js", text: "TS3" });
    assert.deepEqual(d.route, { route: "direct", agentId: "agent-8", thread: "a" });
    assert.deepEqual(second.delivered, ["d->agent-8"]);
    await second.log.close();
    const kinds = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { kind: string }).kind);
    assert.deepEqual(kinds, ["trigger", "trigger", "trigger", "decision", "worker", "delivered", "trigger"]);
  });
});
