// The router's tools: wait for triggers, and dispatch each one (assign it to a new worker, forward it to a running
// agent, reply to the person, hold it, drop it with a reason). None reads, writes or runs anything in the
// workspace: the router's tool list is exactly these (and finish), checked where its seat is made
// (src/worker/standing/standingSeats.ts), so a call to any other tool is refused at dispatch like an unknown one.
import type { z } from "zod";
import { routerToolArgs, type RouterDecision, type Trigger } from "../../../protocol/triggers";
import type { ToolContext } from "./toolContext";
import { defineTool, type CatalogTool } from "./toolDefinition";

/**
 * What the router's tools need of its desk (the standing swarm's RouterDesk, src/worker/standing/routerDesk.ts):
 * declared here so the agent floor does not import the standing floor above it.
 */
export interface RouterDesk {
  /** Shown to the router and not decided yet. */
  shownUndecided(): string[];
  /** The next batch of triggers; none when `signal` aborts. */
  nextBatch(signal: AbortSignal | undefined): Promise<Trigger[]>;
  /** Checks and carries out a decision; resolves with what the router reads back. */
  decide(triggerId: string, decision: RouterDecision, by: string): Promise<string>;
}

/** What the router reads of a trigger. */
function shown(t: Trigger) {
  return {
    id: t.id,
    source: t.source,
    text: t.text,
    ...(t.path !== undefined ? { path: t.path } : {}),
    ...(t.line !== undefined ? { line: t.line } : {}),
    ...(t.test !== undefined ? { test: t.test } : {}),
    ...(t.severity !== undefined ? { severity: t.severity } : {}),
  };
}

const noDesk = "only the router of a standing swarm (swarmboard watch) can dispatch triggers";

function deskOf(desk: RouterDesk | undefined): RouterDesk {
  if (desk === undefined) throw new Error(noDesk);
  return desk;
}

function decisionTool<Schema extends z.ZodType<{ trigger: string }>>(
  name: string,
  description: string,
  args: Schema,
  desk: RouterDesk | undefined,
  decision: (args: z.output<Schema>) => RouterDecision,
): CatalogTool {
  return defineTool<ToolContext, Schema, { said: string }>({
    name,
    kind: "control",
    description,
    args,
    run: async (ctx, parsed) => ({ said: await deskOf(desk).decide(parsed.trigger, decision(parsed), ctx.agent) }),
    meaning: (result, parsed) => ({ summary: `${name} ${parsed.trigger}: ${result.said}`, reply: result }),
  });
}

/** The router's tools, dispatching through `desk` (undefined: the catalogue's copies, which refuse to run). */
export function routerTools(desk: RouterDesk | undefined): CatalogTool[] {
  const wait = defineTool<
    ToolContext,
    typeof routerToolArgs.wait_for_triggers,
    { triggers: ReturnType<typeof shown>[]; stillUndecided?: string[] }
  >({
    name: "wait_for_triggers",
    kind: "control",
    description:
      "Wait for new triggers and read all that arrived since your last call at once (decide each one, then wait again).",
    args: routerToolArgs.wait_for_triggers,
    run: async (ctx) => {
      const d = deskOf(desk);
      const before = new Set(d.shownUndecided());
      const triggers = (await d.nextBatch(ctx.signal)).map(shown);
      const undecided = [...before].filter((id) => d.shownUndecided().includes(id));
      return { triggers, ...(undecided.length > 0 ? { stillUndecided: undecided } : {}) };
    },
    meaning: (result) => ({
      summary: `${result.triggers.length} trigger(s): ${result.triggers.map((t) => t.id).join(", ") || "none (stopping)"}`,
      reply: result,
    }),
  });
  return [
    wait,
    decisionTool(
      "assign_task",
      "Give a trigger's work to a new worker forked from the shared context; it owns that one task.",
      routerToolArgs.assign_task,
      desk,
      (a) => ({ action: "assign", task: a.task }),
    ),
    decisionTool(
      "forward_trigger",
      "Send a trigger to a running agent whose work it concerns.",
      routerToolArgs.forward_trigger,
      desk,
      (a) => ({ action: "forward", agentId: a.agent, note: a.note }),
    ),
    decisionTool(
      "reply_to_person",
      "Answer the person who sent a trigger (a question needs no worker).",
      routerToolArgs.reply_to_person,
      desk,
      (a) => ({ action: "reply", text: a.text }),
    ),
    decisionTool(
      "hold_trigger",
      "Keep a trigger for later; it comes back with the next batch.",
      routerToolArgs.hold_trigger,
      desk,
      (a) => ({ action: "hold", reason: a.reason }),
    ),
    decisionTool(
      "drop_trigger",
      "Drop a trigger that needs no work, saying why.",
      routerToolArgs.drop_trigger,
      desk,
      (a) => ({ action: "drop", reason: a.reason }),
    ),
  ];
}

/** Every name a router may call: its own tools and finish. */
export const routerToolNameSet: ReadonlySet<string> = new Set([...routerTools(undefined).map((t) => t.name), "finish"]);

/** Refuses a router tool list that holds anything else (the architecture's promise: the router only dispatches). */
export function assertDispatchOnly(names: Iterable<string>): void {
  const other = [...names].filter((n) => !routerToolNameSet.has(n));
  if (other.length > 0)
    throw new Error(
      `A router may only dispatch; its tools must be among ${[...routerToolNameSet].join(", ")}, but it lists ${other.join(", ")}.`,
    );
}
