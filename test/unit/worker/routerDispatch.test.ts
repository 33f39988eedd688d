// The router only dispatches: its tool list holds no workspace tool (refused where its seat is made), a workspace
// call it is forced to make is refused at dispatch, and its desk hands over everything queued in one batch.
import assert from "node:assert/strict";
import { watchRecipeInput } from "../../../src/core/builtinRecipes";
import { parseRecipeValue } from "../../../src/core/recipeParse";
import { dispatchCall } from "../../../src/worker/agent/callDispatch";
import { RouterDesk } from "../../../src/worker/standing/routerDesk";
import { toolNamesForRecipes } from "../../../src/worker/agent/toolCatalog";
import { assertDispatchOnly, routerTools, routerToolNameSet } from "../../../src/worker/agent/tools/routerTools";
import type { ToolContext } from "../../../src/worker/agent/tools/toolContext";
import type { RouterDecision, Trigger } from "../../../src/protocol/triggers";

function t(id: string): Trigger {
  return { id, source: "diagnostic", fingerprint: id, time: 1, text: `error ${id}`, path: `src/${id}.ts` };
}

const ctx = { agent: "agent-1" } as unknown as ToolContext;

describe("worker: the router's tools", () => {
  it("the watch recipe's router lists only dispatch tools, and a router role with a workspace tool is refused", () => {
    const parsed = parseRecipeValue("watch", watchRecipeInput, { knownTools: toolNamesForRecipes() });
    assert.ok(parsed.ok, "the watch recipe parses against the catalogue");
    const router = parsed.recipe.roles.find((r) => r.name === "router")!;
    assert.doesNotThrow(() => assertDispatchOnly(router.tools));
    for (const name of ["read_file", "write_file", "run_command", "search", "spawn_subagent"])
      assert.throws(() => assertDispatchOnly([...router.tools, name]), new RegExp(`may only dispatch.*lists ${name}`));
    assert.ok(![...routerToolNameSet].some((n) => ["read_file", "write_file", "run_command"].includes(n)));
  });

  it("a workspace call forced on the router is refused at dispatch; a decision goes through its desk", async () => {
    const decided: Array<[string, RouterDecision]> = [];
    const desk = new RouterDesk(async (trigger, decision) => {
      decided.push([trigger.id, decision]);
      return "ok";
    });
    const tools = routerTools(desk);
    const read = await dispatchCall(ctx, tools, "read_file", JSON.stringify({ path: "src/a.ts" }));
    assert.equal(read.ok, false);
    assert.match(read.error ?? "", /no tool "read_file" among your tools/);
    const early = await dispatchCall(ctx, tools, "assign_task", JSON.stringify({ trigger: "a", task: "fix a" }));
    assert.equal(early.ok, false, "a trigger it was not shown cannot be decided");
    assert.match(early.error ?? "", /unknown-trigger: a/);
    desk.enqueue(t("a"));
    const batch = await dispatchCall(ctx, tools, "wait_for_triggers", "{}");
    assert.deepEqual(
      (batch.result as { triggers: { id: string }[] }).triggers.map((x) => x.id),
      ["a"],
    );
    const assigned = await dispatchCall(ctx, tools, "assign_task", JSON.stringify({ trigger: "a", task: "fix a" }));
    assert.equal(assigned.ok, true, assigned.error);
    assert.deepEqual(decided, [["a", { action: "assign", task: "fix a" }]]);
  });

  it("the catalogue's copies refuse to run outside a standing swarm", async () => {
    const out = await dispatchCall(ctx, routerTools(undefined), "wait_for_triggers", "{}");
    assert.match(out.error ?? "", /only the router of a standing swarm/);
  });

  it("triggers queued while the router is busy come in one batch; a held one comes back with the next", async () => {
    const desk = new RouterDesk(async () => "ok");
    for (const id of ["a", "b", "c"]) desk.enqueue(t(id));
    assert.deepEqual(
      (await desk.nextBatch(undefined)).map((x) => x.id),
      ["a", "b", "c"],
    );
    await desk.decide("a", { action: "hold", reason: "needs the next build" }, "agent-1");
    await desk.decide("b", { action: "drop", reason: "generated file" }, "agent-1");
    const waiting = desk.nextBatch(undefined);
    desk.enqueue(t("d"));
    desk.enqueue(t("e"));
    assert.deepEqual(
      (await waiting).map((x) => x.id),
      ["d", "e", "a"],
    );
    const stop = new AbortController();
    const none = desk.nextBatch(stop.signal);
    stop.abort();
    assert.deepEqual(await none, [], "a stopped swarm's wait ends with nothing");
  });

  it("a held trigger comes back with the next batch, or alone once holdMs has passed", async () => {
    const desk = new RouterDesk(async () => "ok", 50);
    desk.enqueue(t("a"));
    desk.enqueue(t("b"));
    await desk.nextBatch(undefined);
    await desk.decide("a", { action: "hold", reason: "wait for the build" }, "r");
    await desk.decide("b", { action: "drop", reason: "noise" }, "r");
    desk.enqueue(t("c"));
    assert.deepEqual(
      (await desk.nextBatch(undefined)).map((x) => x.id),
      ["c", "a"],
      "with the next batch",
    );
    await desk.decide("a", { action: "hold", reason: "still building" }, "r");
    const started = Date.now();
    assert.deepEqual(
      (await desk.nextBatch(undefined)).map((x) => x.id),
      ["a"],
      "alone, when nothing else came",
    );
    assert.ok(Date.now() - started >= 40, "not before holdMs");
  });

  it("a refused decision leaves the trigger waiting for another", async () => {
    const desk = new RouterDesk(async (_t, d) => {
      if (d.action === "forward") throw new Error("no-such-agent: agent-9 is not running");
      return "ok";
    });
    desk.enqueue(t("a"));
    await desk.nextBatch(undefined);
    await assert.rejects(
      desk.decide("a", { action: "forward", agentId: "agent-9", note: "yours" }, "r"),
      /no-such-agent/,
    );
    assert.equal(await desk.decide("a", { action: "drop", reason: "stale" }, "r"), "ok");
  });

  it("a wait names what the router was shown and left undecided; a new router is shown it again", async () => {
    const desk = new RouterDesk(async () => "ok");
    const tools = routerTools(desk);
    desk.enqueue(t("a"));
    desk.enqueue(t("b"));
    await dispatchCall(ctx, tools, "wait_for_triggers", "{}");
    await desk.decide("a", { action: "drop", reason: "noise" }, "agent-1");
    desk.enqueue(t("c"));
    const second = await dispatchCall(ctx, tools, "wait_for_triggers", "{}");
    assert.deepEqual(second.result, { triggers: [shownOf("c")], stillUndecided: ["b"] });
    desk.reshow();
    assert.deepEqual(
      (await desk.nextBatch(undefined)).map((x) => x.id),
      ["b", "c"],
    );
  });
});

function shownOf(id: string) {
  return { id, source: "diagnostic", text: `error ${id}`, path: `src/${id}.ts` };
}
