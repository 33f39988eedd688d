// A swarm's events as its state dir's events.jsonl holds them (the worker writes each batch as it goes out), for
// tests that check what a swarm did after the fact. A line still being written is left for the next read.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { swarmEventSchema, type SwarmEvent } from "../../../src/protocol/swarmEvents";

export function swarmTrace(stateDir: string): SwarmEvent[] {
  const file = path.join(stateDir, "events.jsonl");
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, "utf8").split("\n").slice(0, -1);
  return lines.filter((l) => l.trim() !== "").map((l) => swarmEventSchema.parse(JSON.parse(l)));
}

/** The shared router script of the standing-swarm suites: it reads what comes and waits again, deciding nothing. */
export const waitingRouter = {
  agents: {
    "agent-1": [
      { tool: "wait_for_triggers", args: {} },
      { tool: "wait_for_triggers", args: {} },
    ],
  },
};
