// A full KV pool with nobody left to free it, on the real runtime with forced tokens (the tiny ChatML test model, a
// real git repository): a parent starts a sub-agent in the background, reads a large file and waits for the
// sub-agent (collect_subagents); the sub-agent, forked from the parent and without a share of its own, reads two
// large files: within its share, but the pool is full. Before, the sub-agent paused for cells only an agent's end
// frees while its parent waited for it: the swarm hung with every lane paused (CI's free runs hit it with real
// sampling). Now the paused sub-agent is told to give back its cells: it compacts, reads its brief, finishes, and
// the swarm ends. The rule as pure logic: test/unit/worker/cellWaiters.test.ts.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseRecipeValue } from "../../src/core/recipeParse";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import { denyAllApprover } from "../../src/workspace/approvals";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { SwarmSession, type SwarmSummary } from "../../src/worker/swarm/swarmSession";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { git, makeSampleRepo, ofType } from "./swarmFixtures";

/** Lines of plain prose: a tokenizer gives each about the same number of tokens. */
function prose(lines: number, topic: string): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++)
    out.push(`Note ${i} on ${topic}: the median of an even-length list is the mean of its two middle values.`);
  return out.join("\n") + "\n";
}

describe("a full KV pool with nobody left to free it (real runtime, forced tokens)", function () {
  let events: SwarmEvent[];
  let summary: SwarmSummary;

  before(async function () {
    const repo = makeSampleRepo();
    writeFileSync(path.join(repo.workspace, "parent-notes.md"), prose(40, "the parent"));
    writeFileSync(path.join(repo.workspace, "child-a.md"), prose(30, "part a"));
    writeFileSync(path.join(repo.workspace, "child-b.md"), prose(25, "part b"));
    git(repo.workspace, "add", "-A");
    git(repo.workspace, "-c", "user.name=User", "-c", "user.email=user@example.invalid", "commit", "-qm", "notes");
    const tools = ["read_file", "list_dir", "post_finding"];
    const parsed = parseRecipeValue("full-pool", {
      name: "full-pool",
      description: "One worker and its sub-agent on a small pool",
      roles: [{ name: "worker", count: 1, tools, instructions: "Read the notes." }],
      topology: { kind: "fanout" },
      budgets: { wallClockMs: 10 * 60_000, tokensPerAgent: 100_000, kvCells: 4096, steps: 20 },
    });
    assert.ok(parsed.ok, JSON.stringify(parsed));
    events = [];
    const session = new SwarmSession(
      {
        swarmId: "full-pool",
        goal: "Read the notes on the median",
        recipe: parsed.recipe,
        modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
        workspace: repo.workspace,
        stateDir: repo.stateDir,
        threads: 1,
        script: {
          agents: {
            "agent-1": [
              { tool: "spawn_subagent", args: { task: "read both parts", wait: false } },
              { tool: "read_file", args: { path: "parent-notes.md" } },
              { tool: "collect_subagents", args: {} },
              { tool: "finish", args: { summary: "read the notes and collected the parts" } },
            ],
            "agent-2": [
              { tool: "read_file", args: { path: "child-a.md" } },
              { tool: "read_file", args: { path: "child-b.md" } },
              { tool: "finish", args: { summary: "read both parts" } },
            ],
          },
        },
        approver: denyAllApprover,
        policy: defaultPolicyRules,
      },
      (e) => events.push(e),
    );
    summary = await endsWithin(session, 180_000, () => events);
  });

  it("ends: the parent collects its sub-agent and both finish", () => {
    assert.equal(summary.outcome, "completed", summary.reason);
    const ends = ofType(events, "agent-state").filter((e) => e.state === "done" || e.state === "failed");
    assert.deepEqual(
      ends.map((e) => [e.agentId, e.state]),
      [
        ["agent-2", "done"],
        ["agent-1", "done"],
      ],
    );
    const collected = ofType(events, "tool-result").find((r) => r.callId === "agent-1-call-3");
    assert.equal(collected?.summary, "collected 1 sub-agent(s): agent-2");
  });

  it("pauses the sub-agent on the full pool while its parent waits for it, then has it give back its cells", () => {
    const paused = events.findIndex(
      (e) =>
        e.type === "agent-state" && e.agentId === "agent-2" && e.state === "paused" && /^kv-full/.test(e.reason ?? ""),
    );
    assert.ok(paused >= 0, "agent-2 paused on a full pool");
    const collectCall = events.findIndex((e) => e.type === "tool-call" && e.callId === "agent-1-call-3");
    const collectResult = events.findIndex((e) => e.type === "tool-result" && e.callId === "agent-1-call-3");
    assert.ok(collectCall >= 0 && collectCall < paused && paused < collectResult, "agent-1 was in collect_subagents");
    const compacted = ofType(events, "agent-compacted");
    assert.equal(compacted.length, 1, "one compaction: the sub-agent's give-back");
    const [giveBack] = compacted;
    assert.equal(giveBack!.agentId, "agent-2");
    assert.ok(events.indexOf(giveBack!) > paused && events.indexOf(giveBack!) < collectResult);
    assert.ok(giveBack!.releasedCells > 0, "its cells went back to the pool");
  });

  it("keeps what the sub-agent was reading: its brief names the file whose read did not fit", () => {
    const [giveBack] = ofType(events, "agent-compacted");
    assert.match(giveBack!.brief, /child-b\.md/);
  });
});

/** The session's summary, or (past `ms`) a stop and a failure naming where each agent's lane was. */
async function endsWithin(session: SwarmSession, ms: number, seen: () => SwarmEvent[]): Promise<SwarmSummary> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const lanes = new Map<string, string>();
      for (const e of seen()) if (e.type === "agent-state") lanes.set(e.agentId, `${e.state} ${e.reason ?? ""}`.trim());
      session.stop();
      reject(new Error(`the swarm did not end in ${ms / 1000} s; its lanes: ${JSON.stringify([...lanes])}`));
    }, ms);
  });
  try {
    return await Promise.race([session.run(), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
