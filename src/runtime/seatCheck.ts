// The seats of a swarm context, the same for every engine: an id is live once, and each role has its seats.
import type { AgentRole, EngineAgent } from "./port/engine";
import { SwarmRuntimeError } from "./runtimeErrors";

/** Refuses a fork whose id is taken or whose role has no seat left (maxAgents agents, one synthesist). */
export function checkSeat(seat: {
  id: string;
  role: AgentRole;
  trunkId: string;
  maxAgents: number;
  live: readonly Pick<EngineAgent, "id" | "role">[];
}): void {
  const { id, role } = seat;
  if (id === seat.trunkId || seat.live.some((agent) => agent.id === id))
    throw new SwarmRuntimeError("invalid-request", `An agent named ${id} is already live; fork under another id.`);
  const taken = seat.live.filter((agent) => agent.role === role).length;
  const seats = role === "synthesist" ? 1 : seat.maxAgents;
  if (taken >= seats) {
    throw new SwarmRuntimeError(
      "no-sequence-left",
      `All ${seats} ${role} seat(s) are taken; release one before forking, or raise swarmboard.maxAgents.`,
    );
  }
}
