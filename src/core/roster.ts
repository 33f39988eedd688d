// The roster: who covers what. Two views of it. The planned one goes into the trunk before anything forks:
// each seat, its role, what the role covers (from the recipe) and which open task it would take first (from
// the tasks, when there are enough to go round). The live one is what the `roster` tool reads while the swarm
// runs: each agent on the board and the claims it holds now, with the words it claimed them with.
import type { Role } from "../protocol/recipe";
import type { Task } from "../protocol/tasks";
import type { RosterEntry } from "./trunkPrompt";

export interface PlannedSeat {
  readonly id: string;
  readonly role: Role;
}

export interface PlannedRosterInput {
  readonly seats: readonly PlannedSeat[];
  /** The fan-in role, when the recipe has one (its agent is forked last, so it has no number yet). */
  readonly synthesist?: Role;
  readonly tasks: readonly Pick<Task, "id" | "title">[];
}

/** The first sentence of a role's instructions (what the role covers, in the recipe's own words). */
export function roleSummary(role: Role): string {
  const text = role.instructions.replace(/\s+/g, " ").trim();
  const end = /[.!?](\s|$)/.exec(text);
  return end === null ? text : text.slice(0, end.index + 1);
}

/**
 * The roster the trunk carries. Seats of a role take the open tasks in turn as first suggestions when the
 * tasks go round (one each at least); otherwise each claims an angle of the goal or a task, by its own claim.
 */
export function plannedRoster(input: PlannedRosterInput): RosterEntry[] {
  const byRole = new Map<string, PlannedSeat[]>();
  for (const seat of input.seats) byRole.set(seat.role.name, [...(byRole.get(seat.role.name) ?? []), seat]);
  const { tasks } = input;
  const entries: RosterEntry[] = [];
  for (const seats of byRole.values()) {
    seats.forEach((seat, i) => {
      const task = tasks.length >= seats.length ? tasks[i] : undefined;
      const work =
        task !== undefined
          ? `first suggested task: [${task.id}] ${task.title} (claim it, or another open task if it is taken)`
          : tasks.length > 0
            ? `claims one of the ${tasks.length} open task(s) or an angle of the goal, named in its claim`
            : "claims an angle of the goal, named in its claim";
      entries.push({ agent: seat.id, role: seat.role.name, covers: `${roleSummary(seat.role)} Work: ${work}.` });
    });
  }
  if (input.synthesist !== undefined) {
    const role = input.synthesist;
    entries.push({ agent: role.name, role: role.name, covers: `${roleSummary(role)} Forked last, to fan in.` });
  }
  return entries;
}

/** One claim as the live roster shows it. */
export interface RosterClaim {
  readonly claimId: string;
  /** The scope in words (see describeScope). */
  readonly scope: string;
  /** What the agent said it would do when it claimed. */
  readonly text: string;
}

/** One agent of the live roster. */
export interface RosterMember {
  readonly agent: string;
  /** Its role, or undefined for a holder the board knows only from its claims (e.g. before a resume). */
  readonly role?: string;
  readonly claims: readonly RosterClaim[];
}

/** The live roster as lines an agent reads: one per agent, sorted by id, its claims or "no claim". */
export function rosterLines(members: readonly RosterMember[]): string[] {
  return [...members]
    .sort((a, b) => (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : 0))
    .map((m) => {
      const who = m.role === undefined ? m.agent : `${m.agent} [${m.role}]`;
      if (m.claims.length === 0) return `${who}: no claim`;
      const held = m.claims.map((c) => `${c.scope} (${c.claimId}): ${c.text.replace(/\s+/g, " ").trim()}`);
      return `${who} holds ${held.join("; ")}`;
    });
}
