// One definition per tool, called as an agent calls it: the catalogue finds the tool, the arguments are parsed
// once, the tool runs on a real board, and its meaning (reply, lane line, loop inputs, posted entries) comes back.
import { strict as assert } from "assert";
import { MemoryBoardStore } from "../../../src/core/boardStore";
import { SwarmBoard } from "../../../src/core/swarmBoard";
import { dispatchCall } from "../../../src/worker/agent/callDispatch";
import { toolNamesForRecipes, toolsForRole } from "../../../src/worker/agent/toolCatalog";
import type { ToolContext } from "../../../src/worker/agent/tools/toolContext";

const role = {
  name: "worker",
  count: 1,
  instructions: "work",
  tools: ["post_finding", "list_findings", "claim", "read_file"],
};

async function swarm(): Promise<{ ctx: ToolContext; board: SwarmBoard }> {
  const board = new SwarmBoard({ store: new MemoryBoardStore(), visibility: "shared", leaseMs: 1000 });
  board.join("a1");
  board.join("a2");
  await board.postFinding({
    author: "a2",
    kind: "FACT",
    text: "Median sorts as STRINGS",
    time: 1,
    refs: [{ path: "src/stats.js", line: 4 }],
  });
  await board.postFinding({ author: "a2", kind: "FAIL", text: "tried a numeric sort (a-b)", time: 2 });
  await board.postFinding({
    author: "a2",
    kind: "OBSERVED",
    text: "the docs mention median",
    time: 3,
    refs: [{ path: "README.md" }],
  });
  await board.claim("a2", { paths: ["src/stats.js"] }, "fix median", 4);
  return { ctx: { agent: "a1", board, now: () => 10 }, board };
}

describe("tool dispatch: one definition per tool", () => {
  const tools = toolsForRole(role, false);

  it("lists findings (never claims) filtered by kind, path and literal text, and says how many remain", async () => {
    const { ctx } = await swarm();
    const all = await dispatchCall(ctx, tools, "list_findings", "{}");
    assert.ok(all.ok, all.error);
    const texts = (r: unknown) => (r as { findings: { text: string }[] }).findings.map((f) => f.text);
    assert.deepEqual(texts(all.result), [
      "Median sorts as STRINGS",
      "tried a numeric sort (a-b)",
      "the docs mention median",
    ]);
    const byPath = await dispatchCall(ctx, tools, "list_findings", JSON.stringify({ path: "src" }));
    assert.deepEqual(texts(byPath.result), ["Median sorts as STRINGS"]);
    const byText = await dispatchCall(ctx, tools, "list_findings", JSON.stringify({ text: "sort (a-b" }));
    assert.deepEqual(texts(byText.result), ["tried a numeric sort (a-b)"]);
    const byKind = await dispatchCall(
      ctx,
      tools,
      "list_findings",
      JSON.stringify({ kind: ["OBSERVED", "FACT"], text: "median" }),
    );
    assert.deepEqual(texts(byKind.result), ["Median sorts as STRINGS", "the docs mention median"]);
    const newest = await dispatchCall(ctx, tools, "list_findings", JSON.stringify({ limit: 1 }));
    assert.deepEqual(newest.result, {
      findings: [
        { id: "a2-3", kind: "OBSERVED", author: "a2", text: "the docs mention median", refs: [{ path: "README.md" }] },
      ],
      total: 3,
      truncated: true,
      note: "Showing the newest 1 of 3; narrow by kind, path or text.",
    });
    assert.equal(newest.summary, "list_findings: 1 of 3");
  });

  it("refuses a claim kind as a finding kind with a clear invalid-args error", async () => {
    const { ctx } = await swarm();
    const out = await dispatchCall(ctx, tools, "list_findings", JSON.stringify({ kind: ["CLAIM"] }));
    assert.equal(out.ok, false);
    assert.match(out.error ?? "", /^invalid-args: list_findings: kind\.0: /);
    assert.equal(out.args, undefined, "arguments that failed their schema are not handed to the watchdog");
  });

  it("turns a call's result into its meaning for the loop", async () => {
    const { ctx, board } = await swarm();
    const posted = await dispatchCall(ctx, tools, "post_finding", JSON.stringify({ kind: "FACT", text: "checked" }));
    assert.deepEqual(posted.result, { posted: "a1-1" });
    assert.deepEqual(posted.progress, { finding: true });
    assert.equal(posted.posted[0]?.id, "a1-1");
    const refused = await dispatchCall(
      ctx,
      tools,
      "claim",
      JSON.stringify({ scope: { paths: ["src/stats.js"] }, text: "me too" }),
    );
    assert.deepEqual(refused.loopInputs, ["gathered", "claimRefused"]);
    const granted = await dispatchCall(
      ctx,
      tools,
      "claim",
      JSON.stringify({ scope: { paths: ["README.md"] }, text: "docs" }),
    );
    assert.deepEqual(granted.loopInputs, ["gathered", "claimGranted"]);
    assert.equal(granted.summary, "claimed README.md");
    assert.equal(board.board.get(granted.posted[0]!.id)?.kind, "CLAIM");
    const finished = await dispatchCall(ctx, tools, "finish", JSON.stringify({ summary: "done here" }));
    assert.deepEqual([finished.finished, finished.loopInputs], ["done here", ["stop"]]);
  });

  it("answers unknown tools, non-JSON arguments and a missing worktree with errors the agent can act on", async () => {
    const { ctx } = await swarm();
    const unknown = await dispatchCall(ctx, tools, "grep_board", "{}");
    assert.match(
      unknown.error ?? "",
      /no tool "grep_board" among your tools \(claim, collect_subagents, finish, list_findings/,
    );
    const notJson = await dispatchCall(ctx, tools, "claim", "{scope");
    assert.match(notJson.error ?? "", /^invalid-args: the arguments of claim are not JSON/);
    const noWorktree = await dispatchCall(ctx, tools, "read_file", JSON.stringify({ path: "a.txt" }));
    assert.equal(noWorktree.error, "io-failed: this agent has no worktree (its role does not change code).");
    const noDelegate = await dispatchCall(ctx, tools, "spawn_subagent", JSON.stringify({ task: "look" }));
    assert.match(noDelegate.error ?? "", /^spawn_subagent: sub-agents cannot spawn further sub-agents/);
  });

  it("lets recipes name every tool of the catalogue, list_findings included", () => {
    const names = toolNamesForRecipes();
    for (const name of ["read_file", "list_findings", "claim", "finish", "write_report", "spawn_subagent"])
      assert.ok(names.has(name), name);
    assert.throws(
      () => toolsForRole({ ...role, tools: ["format_disk"] }, false),
      /"format_disk", which does not exist/,
    );
  });
});
