// The delegation and talk tools' schemas and answers (pure): package.json declares the same input schemas as the zod
// ones the tools parse with, bad input names the field, and status and findings read as text an agent can use.
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { findingsText, pickSwarm, statusText } from "../../../src/core/delegationText";
import { emptySwarm, type SwarmViewState } from "../../../src/core/swarmView";
import { delegationTools, describeInputProblems } from "../../../src/protocol/delegationTools";
import { talkToolLmName, talkTools, type TalkToolName } from "../../../src/protocol/talkTools";
import type { BoardEntry } from "../../../src/protocol/board";

const packageJson = path.resolve(__dirname, "../../../../package.json");

function entry(id: string, kind: BoardEntry["kind"], author: string, text: string, file?: string): BoardEntry {
  return {
    id,
    kind,
    author,
    time: 1,
    text,
    scope: { paths: [], globs: [] },
    refs: file ? [{ path: file, line: 3 }] : [],
  } as BoardEntry;
}

function swarm(id: string, status: SwarmViewState["status"], startedAt: number): SwarmViewState {
  return {
    ...emptySwarm(id, startedAt),
    status,
    goal: "Fix median",
    recipe: "research",
    rules: [{ name: "AGENTS.md", path: "AGENTS.md", chars: 1200, cut: false }],
    entries: [
      entry("e1", "FACT", "agent-1", "median sorts as strings", "src/stats.js"),
      entry("e2", "OBSERVED", "agent-2", "README names the tests", "README.md"),
      entry("e3", "FACT", "agent-2", "mean (of an empty list) throws", "src/stats.js"),
    ],
  };
}

describe("delegation tools", () => {
  it("declares in package.json the input schemas the tools parse with", () => {
    const pkg = JSON.parse(readFileSync(packageJson, "utf8")) as {
      contributes: { languageModelTools: Array<{ name: string; inputSchema: unknown }> };
    };
    const declared = new Map(pkg.contributes.languageModelTools.map((t) => [t.name, t.inputSchema]));
    const talk = Object.entries(talkTools).map(([name, tool]) => [talkToolLmName(name as TalkToolName), tool] as const);
    const tools = [...Object.entries(delegationTools), ...talk];
    assert.deepEqual([...declared.keys()].sort(), tools.map(([name]) => name).sort());
    for (const [name, tool] of tools) {
      const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.input, { io: "input" });
      assert.deepEqual(declared.get(name), schema, `${name}'s inputSchema in package.json`);
    }
  });

  it("names the wrong field of a bad input", () => {
    const parsed = delegationTools.swarmboard_findings.input.safeParse({ kind: ["NOPE"], limit: 0 });
    assert.ok(!parsed.success);
    assert.match(describeInputProblems(parsed.error), /kind\.0: .*; limit: /);
  });

  it("picks the named swarm, else the running one, else the newest, and says when there is none", () => {
    const all = [swarm("old", "completed", 1), swarm("live", "running", 2), swarm("new", "stopped", 3)];
    assert.equal((pickSwarm(all, undefined) as SwarmViewState).id, "live");
    assert.equal((pickSwarm(all, "old") as SwarmViewState).id, "old");
    assert.match((pickSwarm(all, "nope") as { error: string }).error, /No swarm "nope" here \(known: old, live, new\)/);
    assert.match((pickSwarm([], undefined) as { error: string }).error, /start one with swarmboard_launch/);
  });

  it("writes a status with the rules, the counts and what to call next", () => {
    const text = statusText(swarm("s1", "running", 1));
    assert.match(text, /^Swarm s1: running\nGoal: Fix median\nRecipe: research; 0 agents/);
    assert.match(text, /Agent rules in the trunk: AGENTS\.md \(1,200 chars\)/);
    assert.match(text, /Findings: FACT 2, OBSERVED 1/);
    assert.match(text, /call swarmboard_status again later/);
  });

  it("says an interrupted swarm can be resumed instead of that it failed", () => {
    const text = statusText({ ...swarm("s1", "failed", 1), endReason: "worker exited" }, "the worker was killed");
    assert.match(text, /^Swarm s1: interrupted \(the worker was killed\)\n/);
    assert.ok(!text.includes("failed"), text);
    assert.match(text, /can resume it in VS Code \(Swarmboard: Resume Swarm\)/);
  });

  it("filters findings by kind, path and literal text", () => {
    const view = swarm("s1", "running", 1);
    assert.match(findingsText(view, { kind: ["FACT"] }), /2 of 3 board entries match kind FACT/);
    const byPath = findingsText(view, { path: "README.md" });
    assert.match(byPath, /\[e2\] OBSERVED agent-2: README names the tests \(README\.md:3\)/);
    assert.ok(!byPath.includes("[e1]"));
    assert.match(findingsText(view, { text: "(OF AN EMPTY" }), /1 of 3 .*\n\[e3\] FACT/);
    assert.match(findingsText(view, { text: "nothing like it" }), /No board entries match\./);
  });
});
