// The panel's view of a swarm, projected from the store's SwarmViewState (pure: no vscode). The page gets
// only what it draws: lanes cut to their newest items and the findings feed cut to its newest entries, so a
// 16-agent swarm's update stays small. The budget numbers are the worker's last kv-stats, unchanged.
import { describeRule } from "../../core/agentRules";
import { notServed, notServedText } from "../../core/standingService";
import { triggerQueueLine } from "../../core/triggerView";
import { kindLatencyText, latencyByKind } from "../../core/requestLatency";
import { poolShareText } from "../../core/poolShare";
import { agentsThatStillFit } from "../../core/swarmView";
import { userTaskStates } from "../../core/userTaskRecords";
import { describeWorkerMemory } from "../../core/workerMemory";
import { runtimeModeLabel, type RemoteEngineStats, type SwarmStats, type WorkerMemory } from "../../protocol/runtime";
import type { BudgetView } from "../../protocol/budgetView";
import type { SwarmPanelView } from "../../protocol/webviewMessages";
import { formatBytes, placementText } from "../models/modelFit";
import { agentStatus, swarmStatus, type HostSwarmView } from "../swarm/swarmStatus";

/** Lane items sent per agent (the store keeps more). */
export const laneItemsShown = 60;
/** Findings sent to the feed, newest kept. */
export const findingsShown = 400;
/** Triggers sent to the panel's stream, newest kept. */
export const triggersShown = 50;
/** The current text shown in a lane, newest characters kept. */
const currentChars = 240;

/** A stable colour slot per agent: its position among the swarm's agents. */
export function colourOf(agentIds: readonly string[], agentId: string): number {
  const at = agentIds.indexOf(agentId);
  return (at < 0 ? 0 : at) % 16;
}

/** A remote engine's prefix cache in words; unknown counts are said to be unknown, never shown as zero. */
export function engineText(engine: RemoteEngineStats): string {
  const requests = `${engine.requests} request(s) to ${engine.model} at ${engine.url}`;
  if (!engine.cacheReported) return `${requests}; the engine does not report cached prompt tokens`;
  const prompt = engine.cachedPromptTokens + engine.computedPromptTokens;
  return `${requests}: ${engine.cachedPromptTokens} of ${prompt} prompt tokens came from its prefix cache`;
}

/** The worker's memory for the budget card; its room bounds the agents that fit when it is the smaller. */
function memoryView(memory: WorkerMemory): NonNullable<BudgetView["memory"]> {
  return {
    restBytes: memory.restBytes,
    fixedRestBytes: memory.fixedRestBytes,
    ...(memory.perAgentRestBytes === undefined ? {} : { perAgentRestBytes: memory.perAgentRestBytes }),
    ...(memory.moreAgentsByMemory === undefined ? {} : { moreAgentsByMemory: memory.moreAgentsByMemory }),
    text: describeWorkerMemory(memory),
  };
}

/** The budget in one sentence a person reads first; the figures stay behind the card's details. */
export function budgetSummary(stats: SwarmStats, moreAgentsFit: number | null): string {
  const agents = stats.agents.length;
  const pct = Math.round((100 * stats.usedCells) / Math.max(1, stats.poolCells));
  const use = `${agents} agent${agents === 1 ? "" : "s"} use ${formatBytes(stats.usedBytes)} of the ${formatBytes(stats.poolBytes)} cache (${pct}%)`;
  if (moreAgentsFit === null) return `${use}; how many more fit shows once an agent has written.`;
  return `${use}; room for about ${moreAgentsFit} more agent${moreAgentsFit === 1 ? "" : "s"}.`;
}

export function budgetView(stats: SwarmStats): BudgetView {
  const kvFit = agentsThatStillFit(stats);
  const byMemory = stats.memory?.moreAgentsByMemory;
  const fit = byMemory === undefined ? kvFit : Math.min(kvFit, byMemory);
  const moreAgentsFit = Number.isFinite(fit) ? fit : null;
  const share = poolShareText(stats.share, stats.poolCells);
  return {
    summary: budgetSummary(stats, moreAgentsFit),
    mode: stats.mode,
    ...(share === undefined ? {} : { share }),
    ...(stats.engine === undefined ? {} : { engine: engineText(stats.engine) }),
    poolCells: stats.poolCells,
    trunkCells: stats.trunkCells,
    trunkOwners: stats.trunkOwners,
    usedCells: stats.usedCells,
    freeCells: stats.freeCells,
    reservedCells: stats.reservedCells,
    usedBytes: stats.usedBytes,
    poolBytes: stats.poolBytes,
    bytesPerCell: stats.bytesPerCell,
    ...(stats.kvType === undefined ? {} : { kvType: stats.kvType }),
    ...(stats.placement === undefined ? {} : { placement: placementText(stats.placement) }),
    ...(stats.poolOrigin === undefined ? {} : { poolOrigin: stats.poolOrigin }),
    moreAgentsFit,
    ...(byMemory !== undefined && byMemory < kvFit ? { moreAgentsLimitedBy: "memory" as const } : {}),
    ...(stats.memory === undefined ? {} : { memory: memoryView(stats.memory) }),
    meanStepMs: stats.meanStepMs,
    rowsPerDispatch: stats.rowsPerDispatch,
    dispatches: stats.dispatches,
    tokensPerSecond: stats.tokensPerSecond,
  };
}

/** The lane's text box: the newest turn, and the call being written under it as a one-line preview. */
function laneText(a: HostSwarmView["agents"][number]): string {
  if (a.writing === undefined) return a.current;
  const turn = a.turnEnded ? "" : a.current.trimEnd();
  return `${turn}${turn === "" ? "" : "\n"}writing ${a.writing.preview}`;
}

/** `now`: the host's clock, for what is left of each question's wait. */
export function projectSwarm(view: HostSwarmView, now = Date.now()): SwarmPanelView {
  const ids = view.agents.map((a) => a.id);
  const cells = new Map((view.stats?.agents ?? []).map((a) => [a.agentId, a.privateCells]));
  const agents = view.agents.map((a) => ({
    id: a.id,
    role: a.role,
    state: agentStatus(view, a),
    ...(a.claim ? { claim: a.claim } : {}),
    ...(a.branch ? { branch: a.branch } : {}),
    tokens: a.tokens,
    privateCells: cells.get(a.id) ?? 0,
    colour: colourOf(ids, a.id),
    current: laneText(a).slice(-currentChars),
    laneTotal: a.lane.length,
    lane: a.lane.slice(-laneItemsShown).map((item) => ({
      time: item.time,
      kind: item.kind,
      text: item.text,
      ...(item.ok === undefined ? {} : { ok: item.ok }),
    })),
  }));
  const findings = view.entries.slice(-findingsShown).map((e) => {
    const ref = e.refs[0] ?? (e.scope.paths[0] ? { path: e.scope.paths[0] } : undefined);
    return {
      id: e.id,
      kind: e.kind,
      author: e.author,
      time: e.time,
      text: e.text,
      ...(ref ? { path: ref.path } : {}),
      ...(ref && "line" in ref && ref.line ? { line: ref.line } : {}),
    };
  });
  const addedTasks = userTaskStates(view.entries);
  const unserved = notServed(view);
  const latency = latencyByKind(view.requests?.requests ?? []).map((k) => ({ kind: k.kind, text: kindLatencyText(k) }));
  return {
    id: view.id,
    goal: view.goal,
    recipe: view.recipe,
    status: swarmStatus(view),
    startedAt: view.startedAt,
    ...(view.endedAt ? { endedAt: view.endedAt } : {}),
    ...(view.endReason ? { endReason: view.endReason } : {}),
    ...(view.model ? { model: modelName(view.model.path) } : {}),
    ...(view.mode ? { mode: view.mode } : {}),
    ...(view.rules ? { rules: view.rules.map((r) => describeRule(r)) } : {}),
    ...(view.commands ? { commands: view.commands } : {}),
    agents,
    findings,
    ...(view.stats
      ? { budget: { ...budgetView(view.stats), compactions: view.compactions, compactedCells: view.compactedCells } }
      : {}),
    ...(view.usage && view.usage.length > 0 ? { usage: [...view.usage] } : {}),
    ...(view.questions.length > 0
      ? { questions: view.questions.map((q) => ({ ...q, remainingMs: Math.max(0, q.time + q.timeoutMs - now) })) }
      : {}),
    ...(view.triggers
      ? {
          triggers: {
            ...view.triggers.counts,
            decisions: view.triggers.decisions,
            queue: triggerQueueLine(view.triggers.recent),
            ...(unserved ? { notServed: notServedText(view, unserved) } : {}),
            recent: view.triggers.recent.slice(-triggersShown).map((t) => ({ ...t })),
          },
        }
      : {}),
    ...(latency.length > 0 ? { latency } : {}),
    ...(addedTasks.length > 0 ? { addedTasks } : {}),
  };
}

/** The model's file name without folders or extension, for labels. */
export function modelName(modelPath: string): string {
  const base = modelPath.split(/[\\/]/).pop() ?? modelPath;
  return base.replace(/\.gguf$/i, "");
}

/** "shared cells" or "copy mode", as the sidebar and status bar say it. */
export function modeLabel(mode: string | undefined): string {
  return runtimeModeLabel(mode);
}
