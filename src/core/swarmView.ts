// The one view of a swarm that every surface projects (tree, panel, status bar, editor findings): folded
// from the worker's event stream by a pure reducer. No surface keeps its own truth; each reads this.
import type { BoardEntry } from "../protocol/board";
import type { SwarmStats } from "../protocol/runtime";
import type { AgentState, SwarmEvent } from "../protocol/swarmEvents";
import { withRequestEvent } from "./requestLatency";
import { describeScope } from "./scopes";
import type { AgentView, LaneItem, SwarmViewState } from "./swarmViewState";
import { withDecision, withTrigger } from "./triggerView";

export type { TriggerItem, TriggerStreamState } from "./triggerView";
export {
  emptySwarm,
  type AgentView,
  type ApprovalView,
  type LaneItem,
  type QuestionView,
  type SwarmViewState,
} from "./swarmViewState";

const laneCap = 200;
/** The newest turn's text kept for the lanes (they show its tail). */
const currentCap = 2_000;

function withAgent(s: SwarmViewState, id: string, change: (a: AgentView) => AgentView): SwarmViewState {
  const agents = s.agents.some((a) => a.id === id)
    ? s.agents
    : [
        ...s.agents,
        {
          id,
          role: "agent",
          state: "starting" as AgentState,
          tokens: 0,
          compactions: 0,
          current: "",
          turnEnded: false,
          lane: [],
        },
      ];
  return { ...s, agents: agents.map((a) => (a.id === id ? change(a) : a)) };
}

function pushLane(a: AgentView, item: LaneItem): AgentView {
  const lane = a.lane.length >= laneCap ? [...a.lane.slice(a.lane.length - laneCap + 1), item] : [...a.lane, item];
  return { ...a, lane };
}

/** What a board entry does to its author's claim: a CLAIM sets it (its scope, described), a RELEASE ends it. */
function claimChange(entry: BoardEntry): Partial<Pick<AgentView, "claim">> {
  if (entry.kind === "CLAIM") return { claim: describeScope(entry.scope) };
  return entry.kind === "RELEASE" ? { claim: undefined } : {};
}

/** Folds one event into the view. Pure: same view and event, same result. */
export function reduceSwarm(s: SwarmViewState, e: SwarmEvent): SwarmViewState {
  const next = reduceEvent(s, e);
  const requests = withRequestEvent(next.requests, e);
  return requests === next.requests || requests === undefined ? next : { ...next, requests };
}

function reduceEvent(s: SwarmViewState, e: SwarmEvent): SwarmViewState {
  switch (e.type) {
    case "swarm-started":
      return {
        ...s,
        goal: e.goal,
        recipe: e.recipe,
        status: "running",
        startedAt: e.time,
        mode: e.mode,
        model: e.model,
        trunkTokens: e.trunkTokens,
        ...(e.rules ? { rules: e.rules } : {}),
        ...(e.commands ? { commands: e.commands } : {}),
        ...(e.integrationBranch ? { integrationBranch: e.integrationBranch } : {}),
      };
    case "agent-added":
      return withAgent(s, e.agent.id, (a) => ({
        ...a,
        role: e.agent.role,
        ...(e.agent.branch ? { branch: e.agent.branch } : {}),
      }));
    case "agent-state":
      return withAgent(s, e.agentId, (a) =>
        pushLane(
          { ...a, state: e.state, ...(e.reason ? { reason: e.reason } : {}) },
          { time: e.time, kind: "state", text: e.reason ? `${e.state}: ${e.reason}` : e.state },
        ),
      );
    case "agent-text":
      // The complete call's text counts all its tokens: those already shown while it was written are taken back.
      return withAgent(s, e.agentId, ({ writing, ...a }) => ({
        ...a,
        tokens: a.tokens - (writing?.tokens ?? 0) + e.tokens,
        current: ((a.turnEnded ? "" : a.current) + e.text).slice(-currentCap),
        turnEnded: false,
      }));
    case "call-progress":
      return withAgent(s, e.agentId, (a) => ({
        ...a,
        tokens: a.tokens - (a.writing?.tokens ?? 0) + e.tokens,
        writing: { tool: e.tool, preview: e.preview, tokens: e.tokens },
      }));
    case "tool-call":
      return withAgent(s, e.agentId, (a) =>
        pushLane(e.thought ? pushLane(a, { time: e.time, kind: "thought", text: e.thought.slice(0, 300) }) : a, {
          time: e.time,
          kind: "call",
          text: `${e.tool} ${typeof e.args === "string" ? e.args : JSON.stringify(e.args)}`.slice(0, 300),
        }),
      );
    case "tool-result":
      return withAgent(s, e.agentId, (a) =>
        pushLane({ ...a, turnEnded: true }, { time: e.time, kind: "result", text: e.summary, ok: e.ok }),
      );
    case "board-entry": {
      if (s.entries.some((x) => x.id === e.entry.id)) return s;
      const next = { ...s, entries: [...s.entries, e.entry] };
      const author = next.agents.find((a) => a.id === e.entry.author);
      if (author === undefined) return next;
      return withAgent(next, author.id, (a) =>
        pushLane(
          { ...a, ...claimChange(e.entry) },
          {
            time: e.time,
            kind: e.entry.kind === "MESSAGE" ? "message" : "finding",
            text: `${e.entry.kind}: ${e.entry.text}`.slice(0, 300),
          },
        ),
      );
    }
    case "message-delivered":
      return s;
    case "kv-stats":
      return { ...s, stats: e.stats };
    case "engine-state": {
      const { engineDown: _was, ...rest } = s;
      const next = e.engine.state === "unreachable" ? { ...rest, engineDown: e.engine.message } : rest;
      const text = e.engine.state === "unreachable" ? "waiting for the engine" : "the engine is back";
      return e.engine.waitingAgents.reduce(
        (view, id) => withAgent(view, id, (a) => pushLane(a, { time: e.time, kind: "state", text })),
        next,
      );
    }
    case "agent-compacted": {
      const next = { ...s, compactions: s.compactions + 1, compactedCells: s.compactedCells + e.releasedCells };
      return withAgent(next, e.agentId, (a) =>
        pushLane(
          { ...a, compactions: a.compactions + 1 },
          {
            time: e.time,
            kind: "state",
            text: `compacted (#${e.compaction}): released ${e.releasedCells} of ${e.shareCells} cells, re-forked from the trunk with a ${e.briefTokens}-token brief`,
          },
        ),
      );
    }
    case "approval-ended":
      return withoutApproval(s, e.requestId);
    case "approval-request":
      return {
        ...s,
        approvals: [
          ...s.approvals,
          {
            requestId: e.requestId,
            agentId: e.agentId,
            command: e.command,
            cwd: e.cwd,
            reason: e.reason,
            time: e.time,
          },
        ],
      };
    case "user-question": {
      const { questionId, agentId, question, timeoutMs } = e;
      return { ...s, questions: [...s.questions, { questionId, agentId, question, timeoutMs, time: e.time }] };
    }
    case "user-question-ended":
      return withoutQuestion(s, e.questionId);
    case "trigger":
      return withTrigger(s, e);
    case "trigger-decision":
      return withDecision(s, e);
    case "swarm-ended":
      return {
        ...s,
        status: e.outcome,
        endedAt: e.time,
        endReason: e.reason,
        ...(e.reportPath ? { reportPath: e.reportPath } : {}),
        approvals: [],
        questions: [],
      };
  }
}

/** Drops a question that ended (or that the person just answered) from the view. */
export function withoutQuestion(s: SwarmViewState, questionId: string): SwarmViewState {
  return { ...s, questions: s.questions.filter((q) => q.questionId !== questionId) };
}

/** Drops an answered approval from the view. */
export function withoutApproval(s: SwarmViewState, requestId: string): SwarmViewState {
  return { ...s, approvals: s.approvals.filter((a) => a.requestId !== requestId) };
}

/** Agents the current average tail says would still fit in the pool. */
export function agentsThatStillFit(stats: SwarmStats): number {
  const tails = stats.agents.map((a) => a.privateCells);
  const averageTail = tails.length === 0 ? 0 : tails.reduce((x, y) => x + y, 0) / tails.length;
  if (stats.mode === "copy-mode") return Math.floor(stats.freeCells / Math.max(1, stats.trunkCells + averageTail));
  return averageTail <= 0 ? Number.POSITIVE_INFINITY : Math.floor(stats.freeCells / averageTail);
}
