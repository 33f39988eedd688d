// Topologies as declared, on the real runtime with forced tokens (the tiny ChatML test model, turn scripts): a chain of three
// stages runs one after the other and each stage's brief carries what the one before left; a DAG of four
// stages starts each stage when the stages it comes after are done (a branch does not wait for an unrelated
// slow one); and a depth-2 sub-agent's finding reaches its parent's sibling under private pads while its
// grandparent goes on without blocking (that other families' pads stay private: test/unit/core/familyPads.test.ts).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseRecipeValue } from "../../src/core/recipeParse";
import type { RecipeInput } from "../../src/protocol/recipe";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import type { TurnScript } from "../../src/protocol/turnScript";
import { denyAllApprover } from "../../src/workspace/approvals";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { SwarmSession, type SwarmSummary } from "../../src/worker/swarm/swarmSession";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { makeSampleRepo, ofType, type SampleRepo } from "./swarmFixtures";

const tools = ["grep_board", "post_finding", "read_file", "list_dir", "run_command"];

function recipe(name: string, roles: string[], rest: Partial<RecipeInput>, counts: Record<string, number> = {}) {
  const parsed = parseRecipeValue(name, {
    name,
    description: `${name} topology test`,
    roles: roles.map((r) => ({ name: r, count: counts[r] ?? 1, tools, instructions: `Do the ${r}'s part.` })),
    budgets: { wallClockMs: 10 * 60_000, tokensPerAgent: 100_000, kvCells: 32_768, steps: 20 },
    ...rest,
  });
  assert.ok(parsed.ok, JSON.stringify(parsed));
  return parsed.recipe;
}

async function runSwarm(
  id: string,
  swarmRecipe: ReturnType<typeof recipe>,
  script: TurnScript,
  extra: { allow?: string[] } = {},
): Promise<{ repo: SampleRepo; events: SwarmEvent[]; summary: SwarmSummary }> {
  const repo = makeSampleRepo();
  const events: SwarmEvent[] = [];
  const summary = await new SwarmSession(
    {
      swarmId: id,
      goal: "Find out how the statistics module is used",
      recipe: swarmRecipe,
      modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
      workspace: repo.workspace,
      stateDir: repo.stateDir,
      // One thread: on a busy machine a second one slows every step down (see FACTS).
      threads: 1,
      script,
      approver: denyAllApprover,
      policy: { ...defaultPolicyRules, allow: [...defaultPolicyRules.allow, ...(extra.allow ?? [])] },
    },
    (e) => events.push(e),
  ).run();
  return { repo, events, summary };
}

const fact = (text: string) => ({ tool: "post_finding", args: { kind: "FACT", text } });
const finish = (summary: string) => ({ tool: "finish", args: { summary } });

/** Index in the trace where the agent was added, and where it reached its end state. */
function span(events: readonly SwarmEvent[], agent: string): { added: number; ended: number } {
  const added = events.findIndex((e) => e.type === "agent-added" && e.agent.id === agent);
  const ended = events.findIndex(
    (e) => e.type === "agent-state" && e.agentId === agent && (e.state === "done" || e.state === "failed"),
  );
  assert.ok(added >= 0 && ended > added, `${agent} was added (${added}) and ended (${ended})`);
  return { added, ended };
}

const brief = (repo: SampleRepo, agent: string) =>
  readFileSync(path.join(repo.stateDir, "briefs", `${agent}.txt`), "utf8");

describe("topologies as declared (real runtime, forced tokens)", function () {
  describe("a chain of three stages", function () {
    let run: Awaited<ReturnType<typeof runSwarm>>;

    before(async function () {
      const chain = recipe("chain", ["scout", "analyst", "writer"], {
        topology: { kind: "chain", order: ["scout", "analyst", "writer"] },
      });
      run = await runSwarm("chain", chain, {
        agents: {
          "agent-1": [fact("stats.js exports mean and median"), finish("scouted the exports")],
          "agent-2": [fact("median is wrong for even-length lists"), finish("analysed median")],
          "agent-3": [{ tool: "grep_board", args: { kind: "FACT" } }, finish("wrote it up")],
        },
      });
    });

    it("runs the stages one after the other, in declared order", () => {
      assert.equal(run.summary.outcome, "completed", run.summary.reason);
      assert.deepEqual(
        run.summary.agents.map((a) => [a.id, a.role, a.end.outcome]),
        [
          ["agent-1", "scout", "done"],
          ["agent-2", "analyst", "done"],
          ["agent-3", "writer", "done"],
        ],
      );
      const [scout, analyst, writer] = ["agent-1", "agent-2", "agent-3"].map((a) => span(run.events, a));
      assert.ok(scout!.ended < analyst!.added, "the analyst starts after the scout ended");
      assert.ok(analyst!.ended < writer!.added, "the writer starts after the analyst ended");
      const facts = ofType(run.events, "board-entry")
        .map((e) => e.entry)
        .filter((e) => e.kind === "FACT");
      assert.deepEqual(
        facts.map((e) => e.author),
        ["agent-1", "agent-2"],
      );
      assert.ok(facts[0]!.time <= facts[1]!.time, "board times follow the chain");
    });

    it("gives each stage the previous stage's output in its brief", () => {
      assert.ok(!brief(run.repo, "agent-1").includes("Your input"), "the first stage has no input");
      const analyst = brief(run.repo, "agent-2");
      assert.match(analyst, /Your input, what the stages before yours left:\nStage 1-scout:/);
      assert.ok(analyst.includes("- agent-1 (scout) ended: scouted the exports"), analyst);
      assert.ok(analyst.includes("- FACT by agent-1: stats.js exports mean and median"), analyst);
      const writer = brief(run.repo, "agent-3");
      assert.ok(writer.includes("- FACT by agent-2: median is wrong for even-length lists"), writer);
      assert.ok(writer.includes("- agent-2 (analyst) ended: analysed median"), writer);
      assert.ok(!writer.includes("FACT by agent-1"), "a chain stage reads the stage right before it");
    });
  });

  describe("a DAG of four stages", function () {
    let run: Awaited<ReturnType<typeof runSwarm>>;

    before(async function () {
      // quick -> deep, slow; join after deep and slow. A wave plan would hold deep until slow ended.
      const dag = recipe("dag", ["quick", "slow", "deep", "join"], {
        topology: {
          kind: "dag",
          stages: [
            { name: "quick", roles: ["quick"] },
            { name: "slow", roles: ["slow"] },
            { name: "deep", roles: ["deep"], after: ["quick"] },
            { name: "join", roles: ["join"], after: ["deep", "slow"] },
          ],
        },
      });
      run = await runSwarm(
        "dag",
        dag,
        {
          agents: {
            "agent-1": [fact("quick: mean is fine"), finish("quick look done")],
            "agent-2": [
              { tool: "run_command", args: { command: "sleep 15" } },
              fact("slow: the tests cover median only"),
              finish("slow look done"),
            ],
            "agent-3": [fact("deep: median sorts as strings"), finish("deep look done")],
            "agent-4": [finish("joined")],
          },
        },
        { allow: ["sleep"] },
      );
    });

    it("starts each stage when the stages it comes after are done, not when a whole wave is", () => {
      assert.equal(run.summary.outcome, "completed", run.summary.reason);
      const sleep = ofType(run.events, "tool-result").find((r) => r.agentId === "agent-2");
      assert.ok(sleep?.ok, `the slow stage's command ran: ${sleep?.summary}`);
      const [quick, slow, deep, join] = ["agent-1", "agent-2", "agent-3", "agent-4"].map((a) => span(run.events, a));
      assert.ok(slow!.added < quick!.ended, "quick and slow start together");
      assert.ok(quick!.ended < deep!.added, "deep starts after quick ended");
      assert.ok(deep!.added < slow!.ended, "deep does not wait for slow, which it does not come after");
      assert.ok(deep!.ended < join!.added && slow!.ended < join!.added, "join starts after deep and slow ended");
    });

    it("gives a stage with two predecessors both outputs, and one with none no input", () => {
      const join = brief(run.repo, "agent-4");
      assert.ok(join.includes("Stage deep:") && join.includes("Stage slow:"), join);
      assert.ok(join.includes("FACT by agent-3: deep: median sorts as strings"), join);
      assert.ok(join.includes("FACT by agent-2: slow: the tests cover median only"), join);
      assert.ok(!join.includes("quick: mean is fine"), "join reads what it comes after, not quick's output");
      assert.ok(brief(run.repo, "agent-3").includes("quick: mean is fine"));
      assert.ok(!brief(run.repo, "agent-2").includes("Your input"));
    });
  });

  describe("relay: a depth-2 sub-agent's finding under private pads", function () {
    let run: Awaited<ReturnType<typeof runSwarm>>;

    before(async function () {
      const relay = recipe("relay", ["worker", "synthesist"], {
        topology: { kind: "fanout" },
        visibility: "private-pads",
        synthesist: "synthesist",
      });
      run = await runSwarm("relay", relay, {
        agents: {
          // agent-1 starts a sub-agent in the background, goes on, then collects it; then a second sub-agent.
          "agent-1": [
            { tool: "spawn_subagent", args: { task: "trace the cache", wait: false } },
            { tool: "list_dir", args: { path: "." } },
            { tool: "collect_subagents", args: {} },
            { tool: "spawn_subagent", args: { task: "check the locale" } },
            finish("cache and locale checked"),
          ],
          // agent-1's first sub-agent (depth 1) delegates again, waiting.
          "agent-2": [{ tool: "spawn_subagent", args: { task: "find the cache key" } }, finish("traced")],
          // The depth-2 sub-agent.
          "agent-3": [fact("the cache key ignores the locale"), finish("found the key")],
          // agent-1's second sub-agent: the sibling of agent-3's parent.
          "agent-4": [{ tool: "grep_board", args: { regex: "locale" } }, finish("saw it")],
          synthesist: [{ tool: "write_report", args: { title: "Relay", body: "The cache key ignores the locale." } }],
        },
      });
    });

    it("runs the family: a depth-1 and a depth-2 sub-agent, then a sibling of the depth-1 one", () => {
      assert.equal(run.summary.outcome, "completed", run.summary.reason);
      const parents = ofType(run.events, "agent-added").map((e) => [e.agent.id, e.agent.parent ?? "-"]);
      assert.deepEqual(parents, [
        ["agent-1", "-"],
        ["agent-2", "agent-1"],
        ["agent-3", "agent-2"],
        ["agent-4", "agent-1"],
        ["synthesist-5", "-"],
      ]);
    });

    it("lets the parent go on while its sub-agent works, and hands the outcome over when it collects", () => {
      const results = ofType(run.events, "tool-result").filter((r) => r.agentId === "agent-1");
      assert.equal(results[0]?.summary, "sub-agent agent-2 started in the background");
      assert.match(results[1]?.summary ?? "", /^list_dir/);
      assert.ok(
        run.events.indexOf(results[1]!) < span(run.events, "agent-2").ended,
        "agent-1's next call returned while its sub-agent still worked",
      );
      assert.equal(results[2]?.summary, "collected 1 sub-agent(s): agent-2");
      assert.ok(run.events.indexOf(results[2]!) > span(run.events, "agent-2").ended, "collect waited for it");
      assert.equal(results[3]?.summary, "sub-agent agent-4: saw it");
    });

    it("posts the depth-2 finding on the family's pad, where its parent's sibling sees it", () => {
      const finding = ofType(run.events, "board-entry").find(
        (e) => e.entry.author === "agent-3" && e.entry.kind === "FACT",
      );
      assert.ok(finding, "agent-3 posted its finding");
      const grep = ofType(run.events, "tool-result").find((r) => r.agentId === "agent-4");
      assert.equal(grep?.summary, "grep_board: 1 entries", "the sibling of agent-3's parent sees it");
      assert.ok(run.events.indexOf(finding) < run.events.indexOf(grep!));
      // Under private pads the same entry stays off other agents' pads (test/unit/core/familyPads.test.ts).
    });
  });
});
