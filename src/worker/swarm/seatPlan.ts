// Who runs in a swarm, decided before anything forks: the working seats stage by stage (numbered agent-1,
// agent-2, ... in stage order), the synthesist's role, and each seat's tools. Agents forked later (sub-agents,
// the synthesist) take the next numbers in the order they fork. A seat's number is also its sampling seed's
// offset, so a seat samples the same way whatever its id looks like.
import { widestOverlap } from "../../core/stageOverlap";
import { workspaceAccessOf, type WorkspaceAccess } from "../../core/workspaceAccess";
import { planStages, type StagePlan } from "../../core/stagePlan";
import type { Recipe, Role } from "../../protocol/recipe";
import { toolsForRole, unionOfTools, type CatalogTool } from "../agent/toolCatalog";

export interface Seat {
  readonly id: string;
  /** 1, 2, ...: the seat's place in the swarm (seed offset). */
  readonly number: number;
  readonly role: Role;
  readonly tools: readonly CatalogTool[];
}

export interface SeatPlan {
  /** The working seats, stage by stage (in `graph`'s order); a stage starts when those it comes after ended. */
  readonly stages: readonly (readonly Seat[])[];
  /** The stages' names and what each comes after, by index (see src/core/stagePlan.ts). */
  readonly graph: StagePlan;
  readonly synthesist?: { readonly role: Role; readonly tools: readonly CatalogTool[] };
  /** Every tool any seat may call (what the shared trunk documents). */
  readonly tools: readonly CatalogTool[];
  /** Most seats running at once (independent stages overlap). */
  readonly widestStage: number;
  /** Sequences kept for sub-agents alive at once, beyond the widest stage (the recipe's budgets.subagents). */
  readonly subagentSeats: number;
}

/** Sub-agent seats when the recipe's budgets do not say. */
export const defaultSubagentSeats = 2;

/** Agents per working role: the recipe's counts, or `agents` split over the working roles. */
function roleCounts(working: readonly Role[], agents: number | undefined): Map<string, number> {
  return new Map(
    working.map((r, i) => [
      r.name,
      agents === undefined ? r.count : Math.floor(agents / working.length) + (i < agents % working.length ? 1 : 0),
    ]),
  );
}

export function planSeats(recipe: Recipe, agents: number | undefined): SeatPlan {
  const roles = new Map(recipe.roles.map((r) => [r.name, r]));
  const counts = roleCounts(
    recipe.roles.filter((r) => r.name !== recipe.synthesist),
    agents,
  );
  let n = 0;
  const graph = planStages(recipe);
  const stages = graph.map((stage) =>
    stage.roles.flatMap((name) => {
      const role = roles.get(name);
      if (role === undefined)
        throw new Error(`Recipe ${recipe.name}: its stages name the role ${name}, which it lacks.`);
      const tools = toolsForRole(role, false);
      return Array.from({ length: counts.get(name) ?? 0 }, () => ({ id: `agent-${++n}`, number: n, role, tools }));
    }),
  );
  const synthRole = recipe.roles.find((r) => r.name === recipe.synthesist);
  const synthesist = synthRole ? { role: synthRole, tools: toolsForRole(synthRole, true) } : undefined;
  const tools = unionOfTools([...stages.flat().map((s) => s.tools), synthesist?.tools ?? []]);
  return {
    stages,
    graph,
    tools,
    widestStage: Math.max(
      1,
      widestOverlap(graph, (i) => stages[i]!.length),
    ),
    subagentSeats: recipe.budgets.subagents ?? defaultSubagentSeats,
    ...(synthesist ? { synthesist } : {}),
  };
}

/** A spawn refused because every sequence is in use, said in the recipe's terms (what to wait for, what to raise). */
export function noSubagentSeat(plan: SeatPlan, error: unknown): unknown {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== "no-sequence-left") return error;
  return new Error(
    `No seat for another sub-agent: this swarm keeps ${plan.subagentSeats} sequence(s) for sub-agents beyond its ` +
      `${plan.widestStage} working seat(s), and all are in use. Collect a sub-agent first (collect_subagents), or ` +
      "raise the recipe's budgets.subagents.",
  );
}

/** Numbers for the agents forked after the planned seats, in fork order. */
export class SeatNumbers {
  private last: number;

  constructor(plan: SeatPlan) {
    this.last = plan.stages.flat().length;
  }

  next(): number {
    return ++this.last;
  }

  /** The next number is past `last`. */
  skipThrough(last: number): void {
    this.last = Math.max(this.last, last);
  }
}

/** Whether a seat with these tools changes code (a writer) or only reads (src/core/workspaceAccess.ts). */
export function seatAccess(tools: readonly CatalogTool[]): WorkspaceAccess {
  return workspaceAccessOf(tools.map((t) => t.name));
}

/** How many planned agents may write (each may make a worktree of its own); sub-agents share their parent's. */
export function writingSeats(plan: SeatPlan): number {
  const seats = [...plan.stages.flat().map((s) => s.tools), ...(plan.synthesist ? [plan.synthesist.tools] : [])];
  return seats.filter((tools) => seatAccess(tools) === "writer").length;
}
