// A call is visible while it is written (issue 29): an agent writes a 6 KB file in one write_file call, forced
// token by token through the real ChatML template on the real runtime; while it decodes, its call-progress events
// name the tool and the path with a growing size and token count, before the complete call and its tool-call event;
// and the view folded from the stream shows the preview mid-call and counts the call's tokens once at the end.
import assert from "node:assert/strict";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import { emptySwarm, reduceSwarm } from "../../src/core/swarmView";
import { denyAllApprover } from "../../src/workspace/approvals";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { SwarmSession } from "../../src/worker/swarm/swarmSession";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { makeSampleRepo, ofType, testRecipe } from "./swarmFixtures";

/** A realistic module: 6 KB of functions, so the call takes many decode steps. */
function bigModule(): string {
  const lines: string[] = ["// Summary statistics over arrays of numbers."];
  for (let i = 0; lines.join("\n").length < 6000; i++)
    lines.push(`export function scaled${i}(values) {\n  return values.map((v) => v * ${i + 2});\n}\n`);
  return lines.join("\n");
}

describe("a call while it is written (tiny Qwen2 ChatML, forced trajectory)", function () {
  const events: SwarmEvent[] = [];
  const content = bigModule();

  before(async function () {
    this.timeout(10 * 60_000);
    const repo = makeSampleRepo();
    const session = new SwarmSession(
      {
        swarmId: "live-call",
        goal: "Add the scaled helpers",
        recipe: testRecipe(1),
        modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
        workspace: repo.workspace,
        stateDir: repo.stateDir,
        threads: 1,
        script: {
          agents: {
            "agent-1": [
              { tool: "write_file", args: { path: "src/scaled.js", content } },
              { tool: "finish", args: { summary: "scaled helpers written" } },
            ],
            synthesist: [{ tool: "finish", args: { summary: "-" } }],
          },
        },
        approver: denyAllApprover,
        policy: defaultPolicyRules,
      },
      (e) => events.push(e),
    );
    const summary = await session.run();
    assert.equal(summary.outcome, "completed", summary.reason);
  });

  it("reports the call's tool, path, growing size and tokens before the complete call", () => {
    const call = ofType(events, "tool-call").find((e) => e.agentId === "agent-1" && e.tool === "write_file");
    assert.ok(call, "the write_file call was made");
    const before = events.slice(0, events.indexOf(call));
    const progress = ofType(before, "call-progress").filter((e) => e.agentId === "agent-1" && e.tool === "write_file");
    assert.ok(progress.length >= 3, `${progress.length} progress reports during a ${content.length}-character call`);
    assert.ok(
      progress.every((p) => p.preview.startsWith("write_file ")),
      progress[0]?.preview,
    );
    // The first report may come before the path is written; once it is, every preview names it.
    const named = progress.findIndex((p) => p.preview.startsWith("write_file src/scaled.js · "));
    assert.ok(named >= 0 && named < progress.length - 1, progress.map((p) => p.preview).join(" | "));
    assert.ok(progress.slice(named).every((p) => p.preview.startsWith("write_file src/scaled.js · ")));
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i]!.tokens > progress[i - 1]!.tokens);
    assert.match(progress.at(-1)!.preview, /KB…$/);
  });

  it("shows the preview mid-call in the view, and counts the call's tokens once when it is complete", () => {
    const firstProgress = events.findIndex(
      (e) => e.type === "call-progress" && e.agentId === "agent-1" && e.preview.includes("src/scaled.js"),
    );
    const mid = events.slice(0, firstProgress + 1).reduce(reduceSwarm, emptySwarm("live-call", 0));
    const writing = mid.agents.find((a) => a.id === "agent-1");
    assert.match(writing?.writing?.preview ?? "", /^write_file src\/scaled\.js/);
    assert.ok((writing?.tokens ?? 0) > 0, "the token count moves while the call is written");
    const callText = ofType(events, "agent-text").filter((e) => e.agentId === "agent-1");
    const end = events.reduce(reduceSwarm, emptySwarm("live-call", 0)).agents.find((a) => a.id === "agent-1");
    assert.equal(end?.writing, undefined);
    assert.equal(
      end?.tokens,
      callText.reduce((sum, e) => sum + e.tokens, 0),
      "the view's count is the agent's tokens, the previews not added on top",
    );
  });
});
