// Claims that bind, end to end on the real runtime (the tiny ChatML test model, every call forced token by token):
// agent-1 claims src/stats.js; agent-2 tries to edit it and is refused with agent-1 named, its branch untouched;
// agent-1 releases and agent-2's next edit goes through and is committed. Real board, real claims, real git.
// The agents run side by side, so the scripts space the calls that must come in order with distinct fillers
// (reads and notes, so the watchdog sees neither a repeat nor a stall) and the test checks the order it got.
import assert from "node:assert/strict";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import type { TurnScript } from "../../src/protocol/turnScript";
import { denyAllApprover } from "../../src/workspace/approvals";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { SwarmSession, type SwarmSummary } from "../../src/worker/swarm/swarmSession";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { git, makeSampleRepo, ofType, testRecipe, type SampleRepo } from "./swarmFixtures";

const fixme = "  // FIXME: wrong for even-length lists, and sort() compares as strings.";
const refusedLine = "  // agent-2 was here while agent-1 held the file";
const acceptedLine = "  // agent-2 edited this after agent-1 released it";

/** `n` distinct calls that change nothing: reads of the sample project and notes on the board. */
function fillers(agent: string, n: number, from = 0): TurnScript["agents"][string] {
  const reads = [".", "src", "test"].map((p) => ({ tool: "list_dir", args: { path: p } }));
  const files = ["README.md", "package.json", "test/stats.test.js"].map((p) => ({
    tool: "read_file",
    args: { path: p },
  }));
  const pool = [...reads, ...files];
  return Array.from({ length: n }, (_, i) =>
    i % 2 === 0
      ? pool[(from + i / 2) % pool.length]
      : { tool: "post_finding", args: { kind: "OBSERVED", text: `${agent} waits, step ${from + i}` } },
  );
}

const script: TurnScript = {
  agents: {
    "agent-1": [
      { tool: "claim", args: { scope: { paths: ["src/stats.js"] }, text: "fix median" } },
      ...fillers("agent-1", 11),
      { tool: "release", args: { claimId: "agent-1-1", reason: "median left to agent-2" } },
      { tool: "finish", args: { summary: "claimed src/stats.js, then released it" } },
    ],
    "agent-2": [
      ...fillers("agent-2", 5),
      { tool: "edit_file", args: { path: "src/stats.js", search: fixme, replace: refusedLine } },
      ...fillers("agent-2", 11, 5),
      { tool: "edit_file", args: { path: "src/stats.js", search: fixme, replace: acceptedLine } },
      { tool: "commit", args: { message: "Note who edited median" } },
      { tool: "finish", args: { summary: "edited src/stats.js once agent-1 released it" } },
    ],
    synthesist: [{ tool: "write_report", args: { title: "Claims", body: "agent-2 waited for agent-1's claim." } }],
  },
};

describe("claims that bind: an edit inside another agent's claim is refused (real runtime, tiny ChatML model)", function () {
  let repo: SampleRepo;
  let summary: SwarmSummary;
  const events: SwarmEvent[] = [];

  before(async function () {
    repo = makeSampleRepo();
    const session = new SwarmSession(
      {
        swarmId: "bind",
        goal: "Fix median for even-length lists",
        recipe: testRecipe(2),
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
  const entry = (kind: string, author: string) =>
    ofType(events, "board-entry").find((e) => e.entry.kind === kind && e.entry.author === author);

  it("ends completed with both agents done", () => {
    assert.equal(summary.outcome, "completed", summary.reason);
    for (const a of summary.agents) assert.equal(a.end.outcome, "done", `${a.id}: ${a.end.reason}`);
  });

  it("refuses agent-2's edit while agent-1 holds the file, naming agent-1 and its claim", () => {
    const claim = entry("CLAIM", "agent-1");
    assert.deepEqual(claim?.entry.scope.paths, ["src/stats.js"]);
    assert.equal(claim.entry.id, "agent-1-1");
    const [refused] = results("agent-2", "edit_file");
    assert.ok(events.indexOf(refused) > events.indexOf(claim), "the edit came after the claim landed");
    assert.ok(events.indexOf(refused) < events.indexOf(entry("RELEASE", "agent-1")!), "and before the release");
    assert.equal(refused.ok, false);
    assert.match(
      refused.summary,
      /^claimed: Refused: edit_file src\/stats\.js: src\/stats\.js is claimed by agent-1 \(claim agent-1-1: fix median\); claim another task, or send_message agent-1/,
    );
  });

  it("lets agent-2's edit through once agent-1 released, and its branch holds only that edit", () => {
    const release = entry("RELEASE", "agent-1");
    assert.equal(release?.entry.releases, "agent-1-1");
    const [, accepted] = results("agent-2", "edit_file");
    assert.ok(events.indexOf(accepted) > events.indexOf(release), "the second edit came after the release");
    assert.equal(accepted.ok, true, accepted.summary);
    assert.equal(accepted.summary, "edit_file src/stats.js");
    const onBranch = git(repo.workspace, "show", "swarmboard/bind/agent-2:src/stats.js");
    assert.ok(onBranch.includes(acceptedLine), "the edit after the release is committed");
    assert.ok(!onBranch.includes(refusedLine), "the refused edit never reached the file");
    assert.ok(!onBranch.includes("FIXME"), "the line agent-2 replaced is gone");
  });
});
