// The fast path in code: rules drop noise, duplicates are dropped by fingerprint, follow-ups on an open thread go
// to its owner (or wait, parked, while the router has not placed it), the rest reaches the router; counted.
import assert from "node:assert/strict";
import { defaultFingerprint, defaultTriggerRules, TriggerFastPath } from "../../../src/core/triggerFastPath";
import { TriggerThreads } from "../../../src/core/triggerThreads";
import { triggerRulesSchema, type Trigger, type TriggerInput } from "../../../src/protocol/triggers";

let n = 0;
function trigger(input: Omit<TriggerInput, "id" | "time"> & { time?: number }): Trigger {
  const id = `t-${++n}`;
  return {
    ...input,
    id,
    time: input.time ?? 1_000,
    fingerprint: input.fingerprint ?? defaultFingerprint(input),
  } as Trigger;
}

function fastPath(rules = defaultTriggerRules): TriggerFastPath {
  return new TriggerFastPath(rules, new TriggerThreads());
}

describe("core: the trigger fast path", () => {
  it("drops noise by deny glob, allow list, severity and threads-only with the rule named", () => {
    const fp = fastPath(
      triggerRulesSchema.parse({
        sources: {
          diagnostic: { deny: ["dist/**"], minSeverity: "error" },
          "todo-commit": { allow: ["src/**"] },
          "user-commit": { threadsOnly: true },
        },
      }),
    );
    const built = fp.decide(trigger({ source: "diagnostic", path: "dist/a.js", text: "x" }));
    assert.deepEqual([built.route, built.route === "dropped" && built.rule], ["dropped", "deny"]);
    const warning = fp.decide(trigger({ source: "diagnostic", path: "src/a.ts", text: "unused", severity: "warning" }));
    assert.equal(warning.route === "dropped" && warning.rule, "severity");
    const outside = fp.decide(trigger({ source: "todo-commit", path: "docs/a.md", text: "TODO: x" }));
    assert.equal(outside.route === "dropped" && outside.rule, "allow");
    const commit = fp.decide(trigger({ source: "user-commit", path: "README.md", text: "changed" }));
    assert.equal(commit.route === "dropped" && commit.rule, "threads-only");
    assert.deepEqual(fp.counts, { dropped: 4, direct: 0, router: 0 });
  });

  it("sends new work to the router once, drops its duplicates, and parks follow-ups until it has an owner", () => {
    const fp = fastPath();
    const work = trigger({ source: "test-failure", test: "median even", path: "src/stats.js", text: "expected 2.5" });
    assert.deepEqual(fp.decide(work), { route: "router" });
    const again = fp.decide(trigger({ ...work, time: 2_000 }));
    assert.equal(again.route === "dropped" && again.rule, "duplicate");
    const follow = fp.decide(trigger({ source: "diagnostic", path: "src/stats.js", line: 4, text: "TS2322" }));
    assert.deepEqual(follow, { route: "parked", thread: work.id });
    fp.threads.own(work.id, "agent-5");
    const later = fp.decide(trigger({ source: "test-failure", test: "median even", text: "expected 2.5, got 3" }));
    assert.deepEqual(later, { route: "direct", agentId: "agent-5", thread: work.id });
    fp.threads.close(work.id);
    assert.deepEqual(fp.decide(trigger({ source: "diagnostic", path: "src/stats.js", text: "new error" })), {
      route: "router",
    });
    assert.deepEqual(fp.counts, { dropped: 1, direct: 2, router: 2 });
  });

  it("a fingerprint seen outside the duplicate window is taken again", () => {
    const fp = fastPath(triggerRulesSchema.parse({ duplicateWindowMs: 1_000 }));
    const first = trigger({ source: "message", text: "please look at the build", time: 0 });
    assert.equal(fp.decide(first).route, "router");
    fp.threads.close(first.id);
    assert.equal(
      fp.decide(trigger({ source: "message", text: "please look at the build", time: 5_000 })).route,
      "router",
    );
  });

  it("rate-limits new work per source by the triggers' own times and says which rule to raise", () => {
    const fp = fastPath(triggerRulesSchema.parse({ sources: { diagnostic: { perMinute: 2 } } }));
    const at = (time: number, i: number) =>
      trigger({ source: "diagnostic", path: `src/f${i}.ts`, text: `e${i}`, time });
    assert.equal(fp.decide(at(0, 1)).route, "router");
    assert.equal(fp.decide(at(10_000, 2)).route, "router");
    const third = fp.decide(at(20_000, 3));
    assert.equal(third.route === "dropped" && third.rule, "rate-limit");
    assert.match(
      third.route === "dropped" ? third.reason : "",
      /more than 2 diagnostic.*sources\.diagnostic\.perMinute/,
    );
    assert.equal(fp.decide(at(61_000, 4)).route, "router", "a minute later the window has room again");
  });

  it("replays recorded routes without judging them again", () => {
    const fp = fastPath();
    const work = trigger({ source: "diagnostic", path: "dist/x.js", text: "would be denied now" });
    fp.apply(work, { route: "router" });
    assert.equal(fp.threads.get(work.id)?.id, work.id, "the recorded router trigger opened its thread");
    assert.deepEqual(fp.counts, { dropped: 0, direct: 0, router: 1 });
  });
});
