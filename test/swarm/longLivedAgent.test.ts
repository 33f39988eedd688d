// An agent that lives longer than the pool, on the real runtime with a forced trajectory through a real chat
// template (tiny-random-qwen2-chatml: Qwen2's BPE vocabulary, ChatML, random weights; its short trunk keeps the
// test fast where stories260K's character-level trunk of 5,500 tokens makes every decode slow): agent-1 claims the
// goal, then works through a long task in a 1,024-cell tail share (reads the code and the tests in windows, marks a
// module line by line, checks, commits now and then), then fixes median, merges, tells the swarm and finishes. Each
// time its tail reaches its share it is compacted by re-fork: a compact brief, its cells released, a free fork from
// the trunk. Its claim, branch and messages carry on, and after every compaction the ledger equals llama.cpp's
// positions.
import assert from "node:assert/strict";
import type { BoardEntry } from "../../src/protocol/board";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import type { ScriptedCall, TurnScript } from "../../src/protocol/turnScript";
import { reduceSwarm, emptySwarm } from "../../src/core/swarmView";
import { denyAllApprover } from "../../src/workspace/approvals";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { SwarmSession, type SwarmSummary } from "../../src/worker/swarm/swarmSession";
import { gatherTasks } from "../../src/worker/swarm/workspaceTasks";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { git, makeSampleRepo, ofType, testRecipe, type SampleRepo } from "./swarmFixtures";

const cycles = 134;
const shareCells = 1024;
const message = "agent-2 here: I took variance; median is yours, tell the swarm when it is merged.";

/**
 * agent-1's work: claim, then cycles of reading (the code and the tests, in windows), adding one marked helper to
 * src/weighted.js and checking it is there, with a commit now and then; then the median fix, merge and finish.
 * Calls are short and results long, as when an agent reads code: the test's time goes into tokens, not tools.
 */
function longWork(goalTask: string): ScriptedCall[] {
  const calls: ScriptedCall[] = [
    { tool: "grep_board", args: {} },
    { tool: "claim", args: { scope: { taskId: goalTask }, text: "fix median; add the weighted helpers first" } },
    { tool: "write_file", args: { path: "src/weighted.js", content: "// Weighted sums.\n// next\n" } },
  ];
  for (let n = 1; n <= cycles; n++) {
    calls.push(
      { tool: "read_file", args: { path: "src/stats.js", startLine: 1 + (n % 4) } },
      { tool: "read_file", args: { path: "test/stats.test.js", startLine: 1 + (n % 3) } },
      { tool: "edit_file", args: { path: "src/weighted.js", search: "// next", replace: `// w${n}\n// next` } },
      { tool: "search", args: { pattern: `w${n}$`, paths: ["src"] } },
      { tool: "list_dir", args: { path: n % 2 === 0 ? "src" : "test" } },
    );
    if (n % 20 === 0) calls.push({ tool: "commit", args: { message: `Mark w1..w${n}` } });
  }
  calls.push(
    {
      tool: "edit_file",
      args: { path: "src/stats.js", search: "[...values].sort();", replace: "[...values].sort((a, b) => a - b);" },
    },
    { tool: "commit", args: { message: "Sort median's values numerically" } },
    { tool: "merge_progress", args: {} },
    { tool: "send_message", args: { to: "swarm", text: "median sorts numerically and is merged" } },
    { tool: "finish", args: { summary: "weighted marks added; median sorts numerically; merged" } },
  );
  return calls;
}

function script(goalTask: string, todoTask: string): TurnScript {
  return {
    agents: {
      "agent-1": longWork(goalTask),
      "agent-2": [
        { tool: "claim", args: { scope: { taskId: todoTask }, text: "add variance" } },
        { tool: "send_message", args: { to: "agent-1", text: message } },
        { tool: "finish", args: { summary: "left variance open" } },
      ],
      synthesist: [{ tool: "write_report", args: { title: "Swarm report", body: "median fixed; weighted added." } }],
    },
  };
}

describe("an agent that lives longer than the pool: compaction by re-fork (tiny Qwen2 ChatML)", function () {
  let repo: SampleRepo;
  let summary: SwarmSummary;
  let wallMs = 0;
  const events: SwarmEvent[] = [];

  before(async function () {
    this.timeout(20 * 60_000);
    repo = makeSampleRepo();
    const base = testRecipe(2, 30 * 60_000);
    const recipe = { ...base, budgets: { ...base.budgets, steps: 1000, tokensPerAgent: 1_000_000 } };
    const [goal, ...todos] = await gatherTasks(recipe, "Fix median for even-length lists", repo.workspace);
    const todo = todos.find((t) => t.title.includes("variance"));
    assert.ok(goal && todo, "the goal and the variance TODO are tasks");
    const session = new SwarmSession(
      {
        swarmId: "long",
        goal: "Fix median for even-length lists",
        recipe,
        modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
        workspace: repo.workspace,
        stateDir: repo.stateDir,
        // One thread: on a busy machine llama.cpp's second thread spins and waits (FACTS.md, threads on 2 cores).
        threads: 1,
        // A pool just large enough for the trunk and two shares: the share, not the pool, limits the agent.
        kvCells: 8192,
        tailCells: shareCells,
        script: script(goal.id, todo.id),
        approver: denyAllApprover,
        policy: defaultPolicyRules,
      },
      (e) => events.push(e),
    );
    const started = Date.now();
    summary = await session.run();
    wallMs = Date.now() - started;
  });

  const compactions = () => ofType(events, "agent-compacted").filter((e) => e.agentId === "agent-1");
  const entries = (): BoardEntry[] => ofType(events, "board-entry").map((e) => e.entry);

  it("runs at least 300 steps and 50,000 tokens in a 1,024-cell share, compacting at least 20 times", () => {
    const agent1 = summary.agents.find((a) => a.id === "agent-1");
    assert.ok(agent1, "agent-1 ran");
    assert.equal(agent1.end.outcome, "done", agent1.end.reason);
    assert.ok(agent1.end.steps >= 300, `${agent1.end.steps} steps`);
    const all = compactions();
    assert.ok(all.length >= 20, `${all.length} compactions`);
    assert.ok(
      all.every((e) => e.shareCells === shareCells),
      "every compaction happened in a 1,024-cell share",
    );
    // Every token the agent read or wrote took a cell of its tail: what the compactions released, less the briefs
    // it re-read (work, not bookkeeping), must reach 50,000.
    const released = all.reduce((sum, e) => sum + e.releasedCells, 0);
    const briefs = all.slice(0, -1).reduce((sum, e) => sum + e.briefTokens, 0);
    const work = released - briefs;
    assert.ok(work >= 50_000, `${work} tokens of calls and results through a 1,024-cell share`);
    assert.ok(
      all.every((e) => e.releasedCells <= shareCells),
      "no tail ever outgrew its share",
    );
    console.log(
      `      ${agent1.end.steps} steps, ${work} tokens of calls and results through its tail ` +
        `(${agent1.end.tokens} generated; ${briefs} more re-reading briefs), ${all.length} compactions, ` +
        `${Math.round(wallMs / 1000)} s wall`,
    );
  });

  it("finishes the task: its claim held to the end, its branch carries the work, the integration branch the fix", () => {
    assert.equal(summary.outcome, "completed", summary.reason);
    const claims = entries().filter((e) => e.kind === "CLAIM" && e.author === "agent-1");
    assert.equal(claims.length, 1, "one claim, never lost nor re-made");
    const release = entries().find((e) => e.kind === "RELEASE" && e.releases === claims[0]!.id);
    assert.match(release?.text ?? "", /finished/, "released only when it finished");
    for (const e of compactions()) assert.ok(e.brief.includes(claims[0]!.id), `brief ${e.compaction} names the claim`);
    const branch = summary.agents.find((a) => a.id === "agent-1")?.branch;
    assert.equal(branch, "swarmboard/long/agent-1");
    const weighted = git(repo.workspace, "show", `${branch}:src/weighted.js`);
    for (let n = 1; n <= cycles; n++) assert.ok(weighted.includes(`// w${n}\n`), `w${n} is on the branch`);
    assert.match(git(repo.workspace, "show", "swarmboard/long/main:src/stats.js"), /sort\(\(a, b\) => a - b\)/);
  });

  it("keeps its messages: agent-2's message is delivered once and every later brief carries it", () => {
    const sent = entries().find((e) => e.kind === "MESSAGE" && e.author === "agent-2");
    assert.ok(sent, "agent-2 sent its message");
    const deliveries = ofType(events, "message-delivered").filter((d) => d.messageId === sent.id);
    assert.deepEqual(
      deliveries.map((d) => d.agentId),
      ["agent-1"],
    );
    const deliveredAt = events.indexOf(deliveries[0]!);
    const later = compactions().filter((e) => events.indexOf(e) > deliveredAt);
    assert.ok(later.length >= 20, `${later.length} compactions after the delivery`);
    for (const e of later) assert.ok(e.brief.includes(message), `brief ${e.compaction} carries the message`);
    const own = entries().find((e) => e.kind === "MESSAGE" && e.author === "agent-1");
    assert.equal(own?.text, "median sorts numerically and is merged", "it told the swarm at the end");
  });

  it("has the ledger equal llama.cpp's positions after every compaction", () => {
    for (const e of compactions()) {
      assert.equal(e.positions.llamaMinPosition, 0, `compaction ${e.compaction}`);
      assert.equal(e.positions.llamaMaxPosition + 1, e.positions.ledgerCells, `compaction ${e.compaction}`);
      assert.ok(e.briefTokens <= Math.floor(shareCells / 3), `brief ${e.compaction}: ${e.briefTokens} tokens`);
    }
  });

  it("shows each compaction in the agent's lane and in the view's count", () => {
    const view = events.reduce(reduceSwarm, emptySwarm("long", 0));
    const lane = view.agents.find((a) => a.id === "agent-1");
    assert.equal(lane?.compactions, compactions().length);
    assert.equal(view.compactions, ofType(events, "agent-compacted").length);
    assert.ok(
      lane?.lane.some((item) => item.text.startsWith("compacted (#")),
      "the lane shows a compaction",
    );
  });
});
