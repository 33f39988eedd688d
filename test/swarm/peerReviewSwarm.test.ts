// Review between agents, end to end on the real runtime (the tiny ChatML test model, every call forced token by
// token), real board, real git, the sample project's `npm test` run sandboxed: agent-1 commits a change that
// breaks `mean`; its own merge_progress is refused (the recipe asks for a review); agent-2 reads the diff, runs
// the tests on agent-1's branch and asks for changes; agent-1 fixes it and asks again; agent-2 approves the new
// head. agent-1 approves agent-2's branch, then agent-2 commits once more (its branch moved past the approval), and
// agent-1's approval of its own branch is refused. In the next stage the integrator (agent-3) is refused agent-2's
// moved branch and merges agent-1's at the approved hash. The agents wait for each other with wait_for_review, so
// the order is the protocol's, not the clock's.
import assert from "node:assert/strict";
import { codeTools } from "../../src/core/builtinRecipes";
import { parseRecipeValue } from "../../src/core/recipeParse";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import type { TurnScript } from "../../src/protocol/turnScript";
import { reviewToolNames } from "../../src/protocol/reviewTools";
import { denyAllApprover } from "../../src/workspace/approvals";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { SwarmSession, type SwarmSummary } from "../../src/worker/swarm/swarmSession";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { git, makeSampleRepo, ofType, type SampleRepo } from "./swarmFixtures";

const meanLine = "  return values.reduce((a, b) => a + b, 0) / values.length;";
const meanBroken = "  return values.reduce((a, b) => a + b, 0) / (values.length + 1);";
const medianOld = "  const sorted = [...values].sort();";
const medianFixed =
  "  const sorted = [...values].sort((a, b) => a - b);\n  if (sorted.length % 2 === 0) return (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;";

function reviewRecipe() {
  const parsed = parseRecipeValue("review recipe", {
    name: "review",
    description: "Two workers review each other's branches; an integrator merges what is approved.",
    roles: [
      { name: "worker", count: 2, tools: [...codeTools, ...reviewToolNames], instructions: "Work, then get reviewed." },
      { name: "integrator", count: 1, tools: ["integrate_branch", "grep_board"], instructions: "Merge approved work." },
      { name: "synthesist", count: 1, tools: ["grep_board"], instructions: "Write the report." },
    ],
    topology: {
      kind: "dag",
      stages: [
        { name: "work", roles: ["worker"] },
        { name: "integrate", roles: ["integrator"], after: ["work"] },
        { name: "report", roles: ["synthesist"], after: ["integrate"] },
      ],
    },
    visibility: "shared",
    synthesist: "synthesist",
    budgets: { wallClockMs: 15 * 60_000, tokensPerAgent: 100_000, kvCells: 32_768, steps: 40 },
    testCommand: "npm test",
    review: { approvals: 1 },
    merge: true,
  });
  assert.ok(parsed.ok, parsed.ok ? "" : JSON.stringify(parsed));
  return parsed.recipe;
}

const script: TurnScript = {
  agents: {
    "agent-1": [
      { tool: "edit_file", args: { path: "src/stats.js", search: meanLine, replace: meanBroken } },
      { tool: "commit", args: { message: "Change mean" } },
      { tool: "merge_progress", args: {} },
      { tool: "request_review", args: { reviewer: "agent-2", note: "mean" } },
      { tool: "wait_for_review", args: { timeoutMs: 300_000 } },
      { tool: "edit_file", args: { path: "src/stats.js", search: meanBroken, replace: meanLine } },
      { tool: "edit_file", args: { path: "src/stats.js", search: medianOld, replace: medianFixed } },
      { tool: "commit", args: { message: "Keep mean, fix median" } },
      { tool: "request_review", args: { reviewer: "agent-2", note: "fixed" } },
      { tool: "wait_for_review", args: { timeoutMs: 300_001 } },
      { tool: "review_branch", args: { agent: "agent-2" } },
      { tool: "approve_branch", args: { agent: "agent-2" } },
      { tool: "approve_branch", args: { agent: "agent-1" } },
      { tool: "finish", args: { summary: "median fixed and approved" } },
    ],
    "agent-2": [
      { tool: "write_file", args: { path: "NOTES.md", content: "Notes of agent-2.\n" } },
      { tool: "commit", args: { message: "Add notes" } },
      { tool: "request_review", args: { reviewer: "agent-1", note: "notes" } },
      { tool: "wait_for_review", args: { timeoutMs: 300_000 } },
      { tool: "review_branch", args: { agent: "agent-1" } },
      { tool: "test_peer_branch", args: { agent: "agent-1" } },
      {
        tool: "request_changes",
        args: { agent: "agent-1", comments: "mean is now wrong: keep it; median is the bug" },
      },
      { tool: "wait_for_review", args: { timeoutMs: 300_001 } },
      { tool: "review_branch", args: { agent: "agent-1" } },
      { tool: "read_peer_file", args: { agent: "agent-1", path: "src/stats.js" } },
      { tool: "test_peer_branch", args: { agent: "agent-1" } },
      { tool: "approve_branch", args: { agent: "agent-1" } },
      { tool: "wait_for_review", args: { timeoutMs: 300_002 } },
      { tool: "write_file", args: { path: "NOTES.md", content: "Notes of agent-2, changed after approval.\n" } },
      { tool: "commit", args: { message: "Change notes after approval" } },
      { tool: "finish", args: { summary: "reviewed agent-1" } },
    ],
    "agent-3": [
      { tool: "integrate_branch", args: { agent: "agent-2" } },
      { tool: "integrate_branch", args: { agent: "agent-1" } },
      { tool: "finish", args: { summary: "integrated agent-1" } },
    ],
    synthesist: [{ tool: "write_report", args: { title: "Review", body: "agent-1 reviewed by agent-2, merged." } }],
  },
};

describe("review between agents: a peer reviews, asks for changes, approves; the integrator merges (real runtime)", function () {
  this.timeout(20 * 60_000);
  let repo: SampleRepo;
  let summary: SwarmSummary;
  const events: SwarmEvent[] = [];
  let mainBefore = "";

  before(async function () {
    repo = makeSampleRepo();
    mainBefore = git(repo.workspace, "rev-parse", "HEAD");
    const session = new SwarmSession(
      {
        swarmId: "review",
        goal: "Fix median for even-length lists",
        recipe: reviewRecipe(),
        modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
        workspace: repo.workspace,
        stateDir: repo.stateDir,
        threads: 2,
        script,
        approver: denyAllApprover,
        policy: defaultPolicyRules,
      },
      (e) => events.push(e),
    );
    summary = await session.run();
  });

  const results = (agent: string, tool: string) => {
    const calls = ofType(events, "tool-call").filter((c) => c.agentId === agent && c.tool === tool);
    return ofType(events, "tool-result").filter((r) => calls.some((c) => c.callId === r.callId));
  };
  const entries = (author: string) =>
    ofType(events, "board-entry")
      .map((e) => e.entry)
      .filter((e) => e.author === author);
  const sha = (ref: string) => git(repo.workspace, "rev-parse", ref);

  it("ends completed with every agent done", () => {
    assert.equal(summary.outcome, "completed", summary.reason);
    for (const a of summary.agents) assert.equal(a.end.outcome, "done", `${a.id}: ${a.end.reason}`);
  });

  it("refuses the author's own merge_progress: the recipe asks for a review", () => {
    const [merge] = results("agent-1", "merge_progress");
    assert.equal(merge?.summary, "merge: refused");
  });

  it("agent-2 reads the diff, runs the tests on agent-1's branch and asks for changes; agent-1 reads them", () => {
    const [firstView, secondView] = results("agent-2", "review_branch");
    assert.match(firstView?.summary ?? "", /^review_branch agent-1 at [0-9a-f]{10}: 1 files$/);
    const [broken, passing] = results("agent-2", "test_peer_branch");
    assert.match(broken?.summary ?? "", /^tests of agent-1@[0-9a-f]{10}: broke-tests$/);
    assert.match(passing?.summary ?? "", /^tests of agent-1@[0-9a-f]{10}: passed$/);
    const ask = entries("agent-2").find((e) => e.kind === "MESSAGE" && /asks for changes/.test(e.text));
    assert.match(ask?.text ?? "", /agent-2 asks for changes on agent-1's branch at [0-9a-f]{10}: mean is now wrong/);
    const delivered = ofType(events, "message-delivered").find(
      (d) => d.agentId === "agent-1" && d.messageId === ask?.id,
    );
    assert.ok(delivered, "agent-1 received the change request");
    assert.notEqual(firstView?.summary, secondView?.summary, "the second review read a new head");
  });

  it("agent-2 approves agent-1's new head, and agent-1's approval of its own branch is refused", () => {
    const [approval] = results("agent-2", "approve_branch");
    assert.equal(approval?.ok, true, approval?.summary);
    const head1 = sha("swarmboard/review/agent-1");
    assert.match(
      approval?.summary ?? "",
      new RegExp(
        `^agent-2 approved agent-1's branch at ${head1.slice(0, 10)} \\(agent-1 ${head1.slice(0, 10)}: approved by agent-2\\)$`,
      ),
    );
    const [ofPeer, own] = results("agent-1", "approve_branch");
    assert.equal(ofPeer?.ok, true, ofPeer?.summary);
    assert.equal(own?.ok, false);
    assert.match(
      own?.summary ?? "",
      /^approve_branch: not approved: an agent cannot approve its own branch \(agent-1 is its author\)/,
    );
  });

  it("the integrator is refused agent-2's branch (moved past its approval) and merges agent-1's at the approved hash", () => {
    const [moved, merged] = [...results("agent-3", "integrate_branch")];
    assert.equal(moved?.summary, "integrate agent-2: refused");
    const refusal = entries("agent-3").find((e) => /refused to integrate agent-2/.test(e.text));
    assert.match(refusal?.text ?? "", /agent-2's branch moved past the approved commit .*\(agent-1\)/);
    assert.equal(merged?.summary, "integrate agent-1: merged");
    const head1 = sha("swarmboard/review/agent-1");
    assert.equal(sha("swarmboard/review/main"), head1, "a fast-forward to the approved commit");
    assert.notEqual(head1, mainBefore);
    const note = entries("agent-3").find((e) => e.kind === "PATCH_SUMMARY");
    assert.match(note?.text ?? "", /^integrated agent-1's branch \(agent-1 [0-9a-f]{10}: merged\): Merged .* verified/);
    const merged1 = git(repo.workspace, "show", "swarmboard/review/main:src/stats.js");
    assert.ok(merged1.includes(meanLine) && merged1.includes("sorted.length % 2 === 0"), "the fixed stats.js merged");
    const files = git(repo.workspace, "ls-tree", "-r", "--name-only", "swarmboard/review/main").split("\n");
    assert.ok(!files.includes("NOTES.md"), "agent-2's notes are not merged");
  });
});
