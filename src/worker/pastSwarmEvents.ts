// A past swarm read back from its state dir for a window that did not run it (a reload, a restart, a CLI run):
// its events trace gives the start, the agents, their states and the end; its board gives every entry. Only
// read here, never written: the board's own store would cut a torn last line, and this swarm is not ours.
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { decodeLog } from "../core/boardLogCodec";
import type { BoardEntry } from "../protocol/board";
import { swarmEventSchema, type SwarmEvent, type SwarmEventType } from "../protocol/swarmEvents";

/**
 * The trace's events a past swarm's view is made of; calls, results and stats are bulk without lasting use, and
 * each agent's text deltas are summed into one (its token count) at the end. Approvals are kept: a swarm still
 * running in the shared worker may wait on one, which the window reading it back (a reload) must ask again.
 */
const keptTypes: ReadonlySet<SwarmEventType> = new Set([
  "swarm-started",
  "agent-added",
  "agent-state",
  "agent-text",
  "approval-request",
  "approval-ended",
  "swarm-ended",
]);

/** `upTo`: the trace's length to read (the rest reaches the reader live); all of it when absent. */
async function traceEvents(file: string, problems: string[], upTo?: number): Promise<SwarmEvent[]> {
  const kept: SwarmEvent[] = [];
  const tokens = new Map<string, Extract<SwarmEvent, { type: "agent-text" }>>();
  let bad = 0;
  if (upTo === 0) return [];
  try {
    const input = createReadStream(file, { encoding: "utf8", ...(upTo !== undefined ? { end: upTo - 1 } : {}) });
    const lines = createInterface({ input, crlfDelay: Infinity });
    for await (const line of lines) {
      if (line.trim() === "") continue;
      const type = /"type":"([a-z-]+)"/.exec(line)?.[1];
      if (type === undefined || !keptTypes.has(type as SwarmEventType)) continue;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        bad++;
        continue;
      }
      const parsed = swarmEventSchema.safeParse(json);
      if (!parsed.success) bad++;
      else if (parsed.data.type !== "agent-text") kept.push(parsed.data);
      else {
        const e = parsed.data;
        const sum = tokens.get(e.agentId);
        tokens.set(e.agentId, { ...e, text: "", tokens: (sum?.tokens ?? 0) + e.tokens });
      }
    }
  } catch (error) {
    problems.push(
      `${file} could not be read (${(error as Error).message}): the swarm's agents and model are not shown, its findings are.`,
    );
  }
  if (bad > 0) problems.push(`${file}: ${bad} line(s) were not valid events and were skipped (a torn write?).`);
  return [...kept, ...tokens.values()];
}

async function boardEntries(file: string, problems: string[]): Promise<BoardEntry[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    problems.push(`${file} could not be read (${(error as Error).message}): the swarm's findings are not shown.`);
    return [];
  }
  try {
    return decodeLog(text, file).entries;
  } catch (error) {
    problems.push(`${(error as Error).message} Its findings are not shown.`);
    return [];
  }
}

/** The past swarm's events in the order a live stream would have them: trace first, then the board's entries. */
export async function pastSwarmEvents(
  swarmId: string,
  stateDir: string,
  traceBytes?: number,
): Promise<{ events: SwarmEvent[]; problems: string[] }> {
  const problems: string[] = [];
  const trace = await traceEvents(path.join(stateDir, "events.jsonl"), problems, traceBytes);
  const entries = await boardEntries(path.join(stateDir, "board.jsonl"), problems);
  const events: SwarmEvent[] = trace.filter((e) => e.swarmId === swarmId);
  // The board is the findings' truth; its entries come after the agents so each lands in its author's lane.
  for (const entry of entries) events.push({ type: "board-entry", swarmId, time: entry.time, entry });
  return { events, problems };
}
