// The Swarms tree's nodes, built from the store's swarm views (pure projections: every read rebuilds them).
// The worker line, the model, the launch hint, then swarms -> agents -> findings.
import type * as vscode from "vscode";
import type { AgentView, SwarmViewState } from "../../core/swarmView";
import type { BoardEntry } from "../../protocol/board";
import type { WorkerStatus } from "../../protocol/webviewMessages";
import { commandId } from "../commandTable";
import { modeLabel, modelName } from "../panel/panelProjection";
import {
  agentCount,
  agentStatus,
  isCleanable,
  isResumable,
  isRunning,
  swarmStatus,
  type HostSwarmView,
} from "../swarm/swarmStatus";
import { branchesLine, historyTooltip } from "./pastSwarmText";
import type { TriggerNodeKind } from "./triggerNodes";

type ItemKind = "agent" | "finding" | "memories" | "memory";
export type SwarmsNodeKind = "worker" | "model" | "hint" | "swarm" | ItemKind | TriggerNodeKind;

export interface SwarmsNode {
  readonly id: string;
  readonly kind?: SwarmsNodeKind;
  readonly label: string;
  readonly description?: string;
  readonly tooltip?: string;
  readonly icon: string;
  readonly command?: vscode.Command;
  readonly contextValue?: string;
  readonly swarmId?: string;
  readonly agentId?: string;
  /** An agent's branch (the review's "open branch diff" takes the node itself). */
  readonly branch?: string;
  readonly collapsible?: boolean;
  /** Collapsed at first (a past swarm); otherwise a swarm opens expanded. */
  readonly folded?: boolean;
  /** A memory node's memory id and the folder whose repository holds it (the delete command takes the node). */
  readonly memoryId?: string;
  readonly workspace?: string;
}

const agentIcons: Record<string, string> = {
  starting: "loading~spin",
  gather: "search",
  claim: "pin",
  act: "edit",
  verify: "beaker",
  merge: "git-merge",
  paused: "debug-pause",
  stalled: "warning",
  done: "pass",
  failed: "error",
  interrupted: "debug-disconnect",
};
const swarmIcons: Record<ReturnType<typeof swarmStatus>, string> = {
  starting: "loading~spin",
  running: "sync~spin",
  completed: "pass-filled",
  budget: "watch",
  stopped: "debug-stop",
  failed: "error",
  interrupted: "debug-disconnect",
  "running elsewhere": "remote",
  "not served": "warning",
};
export const findingKinds = new Set(["OBSERVED", "FACT", "FAIL", "PATCH_SUMMARY"]);
const findingIcons: Record<string, string> = {
  OBSERVED: "eye",
  FACT: "lightbulb",
  FAIL: "error",
  PATCH_SUMMARY: "git-commit",
};

function elapsed(view: SwarmViewState): string {
  const s = Math.max(0, Math.round(((view.endedAt ?? Date.now()) - view.startedAt) / 1000));
  return s >= 60 ? `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}

/** "swarm-running", or "swarm" with what may be done to it: "-resumable", "-cleanable" (the menus match on them). */
function swarmContext(view: HostSwarmView): string {
  if (isRunning(view)) return "swarm-running";
  const status = view.interrupted !== undefined ? "-interrupted" : "";
  return `swarm${status}${isResumable(view) ? "-resumable" : ""}${isCleanable(view) ? "-cleanable" : ""}`;
}

export function swarmNode(view: HostSwarmView, stuck: boolean): SwarmsNode {
  const status = stuck ? "stuck? no progress" : swarmStatus(view);
  const asking = view.questions.length > 0 ? `${view.questions.length} asking you` : "";
  const parts = [
    view.recipe,
    status,
    asking,
    elapsed(view),
    `${view.agents.length} agent${view.agents.length === 1 ? "" : "s"}`,
    branchesLine(view),
  ];
  const tooltip = `${view.id}\n${view.goal}\n${agentCount(view)}\n${view.rules?.length ? `rules: ${view.rules.map((r) => r.path).join(", ")}\n` : ""}${view.endReason ?? ""}`;
  return {
    id: `swarm:${view.id}`,
    kind: "swarm",
    label: view.goal || view.id,
    description: parts.filter((p) => p !== "").join(" · "),
    tooltip: `${tooltip}${historyTooltip(view)}`.trim(),
    icon: stuck ? "warning" : swarmIcons[swarmStatus(view)],
    contextValue: swarmContext(view),
    swarmId: view.id,
    // A past swarm starts folded: the live one is what the user watches.
    collapsible: true,
    ...(view.past !== undefined ? { folded: true } : {}),
  };
}

export function agentNode(view: HostSwarmView, agent: AgentView): SwarmsNode {
  const state = agentStatus(view, agent);
  const cells = view.stats?.agents.find((a) => a.agentId === agent.id)?.privateCells ?? 0;
  // Short, most telling first: the sidebar is narrow and cuts the description's end.
  // A past swarm's agents hold no cells in this worker: its cell count would say nothing.
  const cellsPart = view.past === undefined ? `${cells} cells` : "";
  const doing = agent.writing !== undefined ? `writing ${agent.writing.preview}` : "";
  const parts = [doing, `${agent.tokens} tok`, cellsPart, agent.claim ? `claim: ${agent.claim}` : ""].filter(
    (p) => p !== "",
  );
  const live = agent.state !== "done" && agent.state !== "failed" && view.status === "running";
  return {
    id: `agent:${view.id}:${agent.id}`,
    kind: "agent",
    label: `${agent.id} (${agent.role})`,
    description: `${state} · ${parts.join(" · ")}`,
    tooltip: `${agent.id}: ${state}${agent.reason ? ` (${agent.reason})` : ""}\n${agent.tokens} tokens, ${cells} private KV cells${agent.claim ? `\nclaim: ${agent.claim}` : ""}${agent.branch ? `\nbranch ${agent.branch}` : ""}`,
    icon: agentIcons[state] ?? "circle-outline",
    // "-paused": the menus offer Resume instead of Pause.
    contextValue: `agent${live ? "-live" : ""}${live && agent.state === "paused" ? "-paused" : ""}${agent.branch ? "-branch" : ""}`,
    swarmId: view.id,
    agentId: agent.id,
    ...(agent.branch ? { branch: agent.branch } : {}),
    command: {
      command: commandId("showLane"),
      title: "Show Lane",
      arguments: [{ swarmId: view.id, agentId: agent.id }],
    },
    collapsible: view.entries.some((e) => e.author === agent.id && findingKinds.has(e.kind)),
  };
}

export function findingNode(view: SwarmViewState, entry: BoardEntry): SwarmsNode {
  const ref = entry.refs[0];
  const where = ref ? `${ref.path}${ref.line ? `:${ref.line}` : ""}` : "";
  return {
    id: `finding:${view.id}:${entry.id}`,
    kind: "finding",
    label: entry.text.length > 120 ? `${entry.text.slice(0, 119)}…` : entry.text,
    description: [entry.kind, where].filter((p) => p !== "").join(" · "),
    tooltip: `${entry.kind} by ${entry.author}\n${entry.text}`,
    icon: findingIcons[entry.kind] ?? "note",
    swarmId: view.id,
    agentId: entry.author,
    ...(ref
      ? {
          command: {
            command: commandId("openFindingRef"),
            title: "Open",
            arguments: [{ swarmId: view.id, path: ref.path, line: ref.line ?? 1 }],
          },
        }
      : {}),
  };
}

export function modelNode(view: SwarmViewState): SwarmsNode {
  const name = view.model ? modelName(view.model.path) : "no model";
  return {
    id: "model",
    kind: "model",
    label: `Model: ${name}`,
    description: modeLabel(view.mode),
    tooltip: view.model
      ? `${view.model.path}\n${view.model.architecture}, ${view.model.layers} layers, ${view.model.kvBytesPerCell} bytes per KV cell`
      : undefined,
    icon: "chip",
  };
}

/** The model line before any swarm loaded one: the saved model, or plainly none with the ways to set one. */
export function configuredModelNode(modelPath: string): SwarmsNode {
  if (modelPath === "")
    return {
      id: "model",
      kind: "model",
      label: "Model: none set",
      description: "pick a GGUF file or download one",
      tooltip: "Every agent shares one GGUF model. Click to pick one, or use the download button.",
      icon: "warning",
      contextValue: "model-none",
      command: { command: commandId("selectModel"), title: "Select Model" },
    };
  return {
    id: "model",
    kind: "model",
    label: `Model: ${modelName(modelPath)}`,
    description: "loads at the next launch",
    tooltip: `${modelPath}\nSaved in your settings; Select Model changes it.`,
    icon: "chip",
    contextValue: "model-saved",
    command: { command: commandId("selectModel"), title: "Select Model" },
  };
}

/** The worker line, e.g. "Worker: ready (pid 4242)". */
export function workerNode(status: WorkerStatus): SwarmsNode {
  const check: vscode.Command = { command: commandId("pingWorker"), title: "Check Worker" };
  switch (status.state) {
    case "starting":
      return { id: "worker", kind: "worker", label: "Worker: starting…", icon: "loading~spin", command: check };
    case "ready":
      return {
        id: "worker",
        kind: "worker",
        label: `Worker: ready (pid ${status.pid})`,
        description: `v${status.version}`,
        tooltip: "The worker process that will hold the model. Click to check it answers.",
        icon: "pass",
        command: check,
      };
    case "exited":
      return {
        id: "worker",
        kind: "worker",
        label: "Worker: stopped",
        description: status.reason,
        tooltip: "Click to start it again (see the Swarmboard output for why it stopped).",
        icon: "error",
        contextValue: "worker-stopped",
        command: { command: commandId("restartWorker"), title: "Restart Worker" },
      };
  }
}

export function launchHintNode(): SwarmsNode {
  return {
    id: "launch-hint",
    kind: "hint",
    label: "No swarm running",
    description: "Launch Swarm to start one",
    icon: "rocket",
    command: { command: commandId("launchSwarm"), title: "Launch Swarm" },
  };
}
