// A research swarm on the real runtime (the tiny ChatML test model, every call forced token by token through the real decode
// path): the trunk carries the planned roster, one researcher claims an angle and reads an allowed page from a
// loopback server this test starts, the other reads the live roster (and sees that claim) and is refused a page
// on a host the recipe does not allow (nobody approves in this run). Real board, real git, real HTTP.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { builtinRecipes } from "../../src/core/recipeCatalog";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import { denyAllApprover } from "../../src/workspace/approvals";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { SwarmSession, type SwarmSummary } from "../../src/worker/swarm/swarmSession";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { makeSampleRepo, ofType } from "./swarmFixtures";

async function listen(body: string): Promise<{ server: http.Server; base: string }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe("a research swarm's roster and web tools on the real runtime (the tiny ChatML test model)", function () {
  let summary: SwarmSummary;
  let trunk: string;
  let allowed: Awaited<ReturnType<typeof listen>>;
  let other: Awaited<ReturnType<typeof listen>>;
  const events: SwarmEvent[] = [];

  before(async function () {
    allowed = await listen(
      "<html><head><title>Median notes</title></head><body><p>Median sorts numbers.</p></body></html>",
    );
    other = await listen("<p>not for this swarm</p>");
    const repo = makeSampleRepo();
    const research = builtinRecipes().get("research")!;
    const recipe = { ...research, webHosts: [new URL(allowed.base).host] };
    const filler = (p: string) => ({ tool: "list_dir", args: { path: p } });
    const session = new SwarmSession(
      {
        swarmId: "roster",
        goal: "How does the sample project compute a median?",
        recipe,
        agents: 2,
        modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
        workspace: repo.workspace,
        stateDir: repo.stateDir,
        threads: 1,
        kvCells: 16_384,
        script: {
          agents: {
            "agent-1": [
              { tool: "claim", args: { scope: { taskId: "angle: median" }, text: "how median sorts" } },
              { tool: "fetch_url", args: { url: `${allowed.base}/notes` } },
              { tool: "post_finding", args: { kind: "FACT", text: `median sorts numbers (${allowed.base}/notes)` } },
              { tool: "finish", args: { summary: "read the notes" } },
            ],
            "agent-2": [
              filler("."),
              filler("src"),
              filler("test"),
              { tool: "roster", args: {} },
              { tool: "fetch_url", args: { url: `${other.base}/elsewhere` } },
              { tool: "finish", args: { summary: "left median to agent-1" } },
            ],
            synthesist: [{ tool: "write_report", args: { title: "Median", body: "median sorts numbers" } }],
          },
        },
        approver: denyAllApprover,
        policy: defaultPolicyRules,
      },
      (e) => events.push(e),
    );
    summary = await session.run();
    trunk = readFileSync(path.join(repo.stateDir, "trunk.txt"), "utf8");
  });

  after(() => {
    allowed?.server.close();
    other?.server.close();
  });

  const results = (agent: string, tool: string) => {
    const calls = ofType(events, "tool-call").filter((c) => c.agentId === agent && c.tool === tool);
    return ofType(events, "tool-result").filter((r) => calls.some((c) => c.callId === r.callId));
  };

  it("ends completed", () => {
    assert.equal(summary.outcome, "completed", summary.reason);
  });

  it("carries the planned roster and the researchers' tools (claim, roster, fetch_url, web_search) in the trunk", () => {
    const roster = trunk.slice(trunk.indexOf("# Roster"), trunk.indexOf("# Goal"));
    assert.match(
      roster,
      /- agent-1 \[researcher\]: Investigate one angle of the goal\. Work: claims one of the 1 open task\(s\) or an angle of the goal/,
    );
    assert.match(roster, /- agent-2 \[researcher\]: /);
    assert.match(
      roster,
      /- synthesist \[synthesist\]: When the researchers are done or time is up, read every pad and write one report: agreements, disagreements, open questions\. Forked last/,
    );
    assert.match(
      trunk,
      /- researcher \(x4; tools: ask_user, claim, fetch_url, grep_board, list_dir, post_finding, read_file, release, roster, search, send_message, web_search\): /,
    );
  });

  it("shows agent-1's claim in agent-2's roster call", () => {
    const claim = ofType(events, "board-entry").find((e) => e.entry.kind === "CLAIM" && e.entry.author === "agent-1");
    assert.ok(claim, "agent-1 claimed its angle");
    const [roster] = results("agent-2", "roster");
    assert.ok(roster?.ok, "agent-2 read the roster");
    assert.ok(events.indexOf(roster) > events.indexOf(claim), "after the claim landed");
    assert.match(roster.summary, /agent-1 \[researcher\] holds task angle: median \(agent-1-\d+\): how median sorts/);
    assert.match(roster.summary, /agent-2 \[researcher\]: no claim/);
  });

  it("reads the recipe's allowed host as text and notes the page on the board", () => {
    const [fetched] = results("agent-1", "fetch_url");
    assert.ok(fetched?.ok, fetched?.summary);
    assert.match(fetched.summary, new RegExp(`^fetch_url ${allowed.base}/notes: 21 of 21 chars$`));
    const note = ofType(events, "board-entry").find((e) => e.entry.kind === "OBSERVED" && e.entry.author === "agent-1");
    assert.match(
      note?.entry.text ?? "",
      new RegExp(`^fetched ${allowed.base}/notes "Median notes", 21 characters .*: Median sorts numbers\\.$`),
    );
  });

  it("refuses another host when nobody approves, as a tool error agent-2 reads", () => {
    const [refused] = results("agent-2", "fetch_url");
    assert.equal(refused?.ok, false);
    assert.match(refused.summary, new RegExp(`^fetch_url: not approved: GET ${other.base}/elsewhere`));
  });
});
