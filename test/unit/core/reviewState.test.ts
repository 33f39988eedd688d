// The review ledger alone: approvals pinned to a commit, change requests, withdrawals, self-approval refused,
// and the integrator's merge check (approved, lacking approvals, moved past the approved commit, merged).
import assert from "node:assert/strict";
import { ReviewLedger } from "../../../src/core/reviewState";

const A = "a".repeat(40);
const B = "b".repeat(40);

describe("review between agents: the review ledger", () => {
  it("refuses an agent approving its own branch, and a sub-agent approving its parent's", () => {
    const ledger = new ReviewLedger((a) => (a === "agent-1-sub" ? "agent-1" : a));
    ledger.noteSeen("agent-1", "agent-1", A);
    const own = ledger.approve("agent-1", "agent-1", A, A, 1);
    assert.equal(own.ok, false);
    assert.match(!own.ok ? own.why : "", /cannot approve its own branch \(agent-1 is its author\).*request_review/);
    ledger.noteSeen("agent-1-sub", "agent-1", A);
    const family = ledger.approve("agent-1-sub", "agent-1", A, A, 1);
    assert.match(!family.ok ? family.why : "", /of agent-1's family/);
    assert.equal(ledger.requestReview("agent-1", "agent-1", A, "").ok, false);
    const busy = ledger.requestReview("agent-1", "agent-2", A, "", "claim agent-2-1: fix mean");
    assert.match(
      !busy.ok ? busy.why : "",
      /^agent-2 is busy \(it holds claim agent-2-1: fix mean\); ask an idle agent/,
    );
    assert.equal(ledger.take("agent-2").length, 0, "a refused request reaches nobody");
    assert.equal(ledger.mergeCheck("agent-1", A, 1).ok, false);
  });

  it("approves only the head the reviewer read", () => {
    const ledger = new ReviewLedger();
    const unread = ledger.approve("agent-2", "agent-1", A, A, 1);
    assert.match(!unread.ok ? unread.why : "", /call review_branch agent-1 first/);
    ledger.noteSeen("agent-2", "agent-1", A);
    const stale = ledger.approve("agent-2", "agent-1", A, B, 1);
    assert.match(!stale.ok ? stale.why : "", /at bbbbbbbbbb now, not aaaaaaaaaa/);
    assert.deepEqual(ledger.approve("agent-2", "agent-1", A, A, 2), {
      ok: true,
      text: "agent-2 approved agent-1's branch at aaaaaaaaaa",
    });
    assert.equal(ledger.state("agent-1", A, 1).state, "approved");
    assert.equal(ledger.state("agent-1", A, 1).line, "agent-1 aaaaaaaaaa: approved by agent-2");
  });

  it("asks for changes, then approves the fix; a branch that moved after approval may not merge", () => {
    const ledger = new ReviewLedger();
    ledger.noteSeen("agent-2", "agent-1", A);
    assert.equal(ledger.requestChanges("agent-2", "agent-1", A, "median is wrong", 1).ok, true);
    assert.equal(ledger.state("agent-1", A, 1).state, "changes-requested");
    const lacking = ledger.mergeCheck("agent-1", A, 1);
    assert.match(!lacking.ok ? lacking.why : "", /has 0 of the 1 approvals it needs/);
    ledger.noteSeen("agent-2", "agent-1", B);
    assert.equal(ledger.approve("agent-2", "agent-1", B, B, 2).ok, true);
    assert.deepEqual(ledger.mergeCheck("agent-1", B, 1), { ok: true, text: "agent-1 bbbbbbbbbb: approved by agent-2" });
    const moved = ledger.mergeCheck("agent-1", "c".repeat(40), 1);
    assert.equal(ledger.state("agent-1", "c".repeat(40), 1).state, "moved");
    assert.match(
      !moved.ok ? moved.why : "",
      /moved past the approved commit .*bbbbbbbbbb \(agent-2\).*approve cccccccccc/,
    );
    ledger.markMerged("agent-1", B, "integrator-3");
    assert.equal(ledger.state("agent-1", B, 1).state, "merged");
    assert.equal(ledger.mergeCheck("agent-1", B, 1).ok, false);
  });

  it("needs as many approvals as the recipe asks, and a withdrawal takes one back", () => {
    const ledger = new ReviewLedger();
    for (const r of ["agent-2", "agent-3"]) ledger.noteSeen(r, "agent-1", A);
    ledger.approve("agent-2", "agent-1", A, A, 1);
    assert.equal(ledger.state("agent-1", A, 2).state, "needs-approvals");
    assert.equal(ledger.mergeCheck("agent-1", A, 2).ok, false);
    ledger.approve("agent-3", "agent-1", A, A, 2);
    assert.equal(ledger.mergeCheck("agent-1", A, 2).ok, true);
    assert.equal(ledger.withdraw("agent-3", "agent-1").ok, true);
    assert.equal(ledger.mergeCheck("agent-1", A, 2).ok, false);
    assert.equal(ledger.withdraw("agent-3", "agent-1").ok, false, "nothing left to withdraw");
  });

  it("keeps each agent's events until it takes them, and tells listeners", () => {
    const ledger = new ReviewLedger();
    let calls = 0;
    const stop = ledger.onEvent(() => calls++);
    ledger.requestReview("agent-1", "agent-2", A, "look at median");
    ledger.noteSeen("agent-2", "agent-1", A);
    ledger.requestChanges("agent-2", "agent-1", A, "fix it", 1);
    stop();
    ledger.approve("agent-3", "agent-1", A, A, 2);
    assert.equal(calls, 2);
    assert.equal(ledger.hasUnread("agent-2"), true);
    assert.deepEqual(
      ledger.take("agent-2").map((e) => [e.kind, e.text]),
      [["review-requested", "agent-1 asks you to review its branch at aaaaaaaaaa: look at median"]],
    );
    assert.equal(ledger.hasUnread("agent-2"), false);
    assert.deepEqual(
      ledger.take("agent-1").map((e) => e.kind),
      ["changes-requested"],
      "the approval by agent-3 was refused (it never read the branch), so it is no event",
    );
  });
});
