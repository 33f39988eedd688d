// The server bench's figures, read from what the runtime itself reports on each swarm's event stream: the trunk's
// tokens and how many were forked from a live swarm (swarm-started), the pool's dispatch and generation counters
// (kv-stats), and when each researcher had read its brief and began its first turn (agent-state "gather").
import type { SwarmEvent } from "../src/protocol/swarmEvents";
import type { SwarmStats } from "../src/protocol/runtime";

export interface SwarmFigures {
  readonly outcome: string;
  /** From the launch request to the last researcher's first turn (all agents started), in ms. */
  readonly allStartedMs: number;
  /** From the launch request to the swarm's end, in ms. */
  readonly endedAt: number;
  readonly trunkTokens: number;
  /** Trunk tokens forked from a live swarm's trunk instead of decoded. */
  readonly trunkForked: number;
  /** Swarms on the pool at most, as this swarm's budget said (2: it shared the first's pool). */
  readonly poolSwarms: number;
  readonly compactions: number;
  /** The swarm's last budget with the most generation dispatches (the pool's meter, when the pool is shared). */
  readonly lastStats: SwarmStats | undefined;
}

/** The first time each of `agentIds` reached `gather` (brief read, its first turn begins). */
function firstTurns(events: readonly SwarmEvent[], agentIds: readonly string[]): Map<string, number> {
  const seen = new Map<string, number>();
  for (const e of events)
    if (e.type === "agent-state" && e.state === "gather" && agentIds.includes(e.agentId) && !seen.has(e.agentId))
      seen.set(e.agentId, e.time);
  return seen;
}

/** The researchers' ids: agent-1 ... agent-N. */
export function researcherIds(agents: number): string[] {
  return Array.from({ length: agents }, (_, i) => `agent-${i + 1}`);
}

/** Whether every researcher began its first turn (the swarm is live). */
export function allStarted(events: readonly SwarmEvent[], agents: number): boolean {
  return firstTurns(events, researcherIds(agents)).size === agents;
}

export function hasEnded(events: readonly SwarmEvent[]): boolean {
  return events.some((e) => e.type === "swarm-ended");
}

export function swarmFigures(events: readonly SwarmEvent[], agents: number, launchedAt: number): SwarmFigures {
  const started = events.find((e) => e.type === "swarm-started");
  const ended = events.find((e) => e.type === "swarm-ended");
  if (started?.type !== "swarm-started" || ended?.type !== "swarm-ended")
    throw new Error("server bench: a swarm's stream has no start or no end");
  const turns = [...firstTurns(events, researcherIds(agents)).values()];
  if (turns.length !== agents) throw new Error(`server bench: ${turns.length} of ${agents} researchers ever started`);
  let lastStats: SwarmStats | undefined;
  let poolSwarms = 1;
  for (const e of events) {
    if (e.type !== "kv-stats") continue;
    poolSwarms = Math.max(poolSwarms, e.stats.share?.swarms ?? 1);
    if (lastStats === undefined || e.stats.generationSteps >= lastStats.generationSteps) lastStats = e.stats;
  }
  return {
    outcome: ended.outcome,
    allStartedMs: Math.max(...turns) - launchedAt,
    endedAt: ended.time,
    trunkTokens: started.trunkTokens,
    trunkForked: started.trunkReusedTokens ?? 0,
    poolSwarms,
    compactions: events.filter((e) => e.type === "agent-compacted").length,
    lastStats,
  };
}

/** One arm of the bench: the two swarms and the processes they ran in. */
export interface ArmFigures {
  readonly arm: "one server" | "two workers";
  readonly processes: number;
  /** VmHWM summed over the server processes. */
  readonly peakRssBytes: number;
  readonly cpuMs: number;
  /** From the first launch to the last swarm's end. */
  readonly wholeRunMs: number;
  readonly modelLoads: number;
  readonly first: SwarmFigures;
  readonly second: SwarmFigures;
  /** Whether the first swarm still ran when the second's researchers had all started. */
  readonly firstLiveAtSecondStart: boolean;
  /** Generation dispatches and generated tokens, each process's pool meter counted once. */
  readonly generationDispatches: number;
  readonly generatedTokens: number;
  /** Each swarm's trunk text (trunk.txt): the JSON carries it, to say what the second could fork of the first's. */
  readonly trunkTexts: readonly [string, string];
}

/** Each pool's meter once: a shared pool's meter is in both swarms' budgets, so the larger is taken. */
export function meterTotals(perPool: ReadonlyArray<readonly SwarmFigures[]>): { dispatches: number; tokens: number } {
  let dispatches = 0;
  let tokens = 0;
  for (const swarms of perPool) {
    const stats = swarms
      .map((s) => s.lastStats)
      .filter((s): s is SwarmStats => s !== undefined)
      .sort((a, b) => b.generationSteps - a.generationSteps);
    dispatches += stats[0]?.generationSteps ?? 0;
    tokens += stats[0]?.generatedTokens ?? 0;
  }
  return { dispatches, tokens };
}
