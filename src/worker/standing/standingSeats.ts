// What a standing swarm reads from its recipe and its state dir: the router's seat and tools (dispatch only,
// checked twice: the role's list and the bound tools), the working role, the briefs kept on disk, and the wait
// for the swarm's end.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Role } from "../../protocol/recipe";
import { routerRoleName } from "../../protocol/triggers";
import type { RouterDesk } from "./routerDesk";
import type { Seat } from "../swarm/seatPlan";
import type { ScheduleGround } from "../swarm/swarmRun";
import { toolsForRole, type CatalogTool } from "../agent/toolCatalog";
import { assertDispatchOnly, routerTools } from "../agent/tools/routerTools";

/** The recipe's router seat and its working role; refused with why when the recipe cannot stand. */
export function standingSeats(setup: Pick<ScheduleGround, "plan" | "options">): {
  router: Seat;
  worker: Seat;
  workerSeats: number;
} {
  const seats = setup.plan.stages.flat();
  const router = seats.find((s) => s.role.name === routerRoleName);
  const workers = seats.filter((s) => s.role.name !== routerRoleName);
  const name = setup.options.recipe.name;
  if (router === undefined || workers.length === 0)
    throw new Error(
      `The recipe ${name} cannot run as a standing swarm: it needs a role named "${routerRoleName}" and a working ` +
        'role (see the built-in "watch" recipe).',
    );
  assertDispatchOnly(router.role.tools);
  return { router, worker: workers[0]!, workerSeats: workers.length };
}

/** The router's tools: its dispatch tools bound to the desk, and finish; nothing else (checked again here). */
export function routerSeatTools(role: Role, desk: RouterDesk): CatalogTool[] {
  const bound = new Map(routerTools(desk).map((t) => [t.name, t]));
  const tools = toolsForRole(role, false, false).map((t) => bound.get(t.name) ?? t);
  assertDispatchOnly(tools.map((t) => t.name));
  return tools;
}

/** What an agent was told, kept in the state dir (`briefs/<agent>.txt`) like a staged swarm's. */
export async function writeBrief(setup: Pick<ScheduleGround, "options">, id: string, text: string): Promise<void> {
  const dir = path.join(setup.options.stateDir, "briefs");
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `${id}.txt`), text);
}

/** Resolves when the swarm stops (its signal, or the wall clock's fan-in). */
export function untilStopped(signal: AbortSignal, stopped: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || stopped()) return resolve();
    const timer = setInterval(() => {
      if (stopped()) done();
    }, 1_000);
    const done = () => {
      clearInterval(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    signal.addEventListener("abort", done, { once: true });
  });
}
