// A scripted thought through the whole worker on the real runtime: the swarm session forces it through the
// model's format, it streams to the event stream as the agent's text before its call, lands on the call as its
// thought, counts in the agent's tokens, and the CLI's log view shows it once with its call.
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { TerminalView } from "../../src/cli/terminalView";
import { emptySwarm, reduceSwarm } from "../../src/core/swarmView";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import { denyAllApprover } from "../../src/workspace/approvals";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { SwarmSession } from "../../src/worker/swarm/swarmSession";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { makeSampleRepo, ofType, testRecipe } from "./swarmFixtures";

const thought = "The goal names median in src/stats.js; reading it first shows how it sorts.";

describe("a scripted thought through the swarm (the tiny ChatML test model)", function () {
  this.timeout(600_000);

  it("streams the thought before its call, puts it on the call and shows it in the CLI's log", async () => {
    const repo = makeSampleRepo();
    const events: SwarmEvent[] = [];
    const session = new SwarmSession(
      {
        swarmId: "think",
        goal: "Fix median for even-length lists",
        recipe: testRecipe(1),
        modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
        workspace: repo.workspace,
        stateDir: repo.stateDir,
        threads: 2,
        script: {
          agents: {
            "agent-1": [
              { tool: "read_file", args: { path: "src/stats.js" }, think: thought },
              { tool: "finish", args: { summary: "read it" } },
            ],
            synthesist: [{ tool: "finish", args: { summary: "nothing to report" } }],
          },
        },
        approver: denyAllApprover,
        policy: defaultPolicyRules,
      },
      (e) => events.push(e),
    );
    const summary = await session.run();
    assert.equal(summary.outcome, "completed", summary.reason);
    const agentEvents = events.filter((e) => "agentId" in e && e.agentId === "agent-1");
    const firstCall = agentEvents.findIndex((e) => e.type === "tool-call");
    const before = agentEvents.slice(0, firstCall).filter((e) => e.type === "agent-text");
    assert.ok(before.length >= 2, `the thought streamed in pieces before the call (${before.length} events)`);
    const streamed = before.map((e) => (e.type === "agent-text" ? e.text : "")).join("");
    assert.ok(streamed.startsWith(thought), `streamed: ${JSON.stringify(streamed)}`);
    const [call] = ofType(events, "tool-call").filter((c) => c.agentId === "agent-1");
    assert.deepEqual([call?.tool, call?.thought], ["read_file", thought]);
    const view = events.reduce(reduceSwarm, emptySwarm("think", 0));
    const lane = view.agents.find((a) => a.id === "agent-1")!.lane.map((i) => i.kind);
    assert.deepEqual(lane.slice(lane.indexOf("thought"), lane.indexOf("thought") + 2), ["thought", "call"]);
    const logged: string[] = [];
    const out = new PassThrough();
    out.on("data", (c: Buffer) => logged.push(c.toString("utf8")));
    new TerminalView(out as unknown as NodeJS.WriteStream, false).onEvents(events);
    assert.match(logged.join(""), new RegExp(`agent-1 thinks: ${thought.replace(/[.;]/g, "\\$&")}\n`));
  });
});
