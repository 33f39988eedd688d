// Renders the panel from its state. Built with DOM calls and textContent only (never innerHTML), so no
// text from the host can become markup. The page is built once; `updatePanel` changes only what differs.
import type { PanelState, WorkerStatus } from "../src/protocol/webviewMessages";
import { runtimeModeLabel } from "../src/protocol/runtime";
import { mountAddedTasks, type AddedTasksDom } from "./addedTasks";
import { el, setText } from "./dom";
import { mountFeed, type FeedDom } from "./findingsFeed";
import { mountBudget, type BudgetDom } from "./kvBudget";
import { mountLanes, type LanesDom } from "./lanes";
import { mountRequestLatency, type RequestLatencyDom } from "./requestLatency";
import { mountSteering, type SteeringDom } from "./steering";
import { mountTriggerStream, type TriggerStreamDom } from "./triggerStream";
import { mountUsageChart, type UsageChartDom } from "./usageChart";

export type PageAction = "pingWorker" | "launchSwarm" | "stopSwarm";

export interface PanelHandlers {
  action(action: PageAction): void;
  openFinding(path: string, line: number | undefined): void;
  stopAgent(agentId: string): void;
  pauseAgent(agentId: string, paused: boolean): void;
  sendMessage(to: string, text: string): void;
  addTask(text: string): void;
  answer(questionId: string, text: string): void;
}

export interface PanelDom {
  title: HTMLElement;
  worker: HTMLElement;
  summary: HTMLElement;
  /** The repository's agent-rules files in the trunk, on their own line (the summary line is cut to fit). */
  rules: HTMLElement;
  /** How agent commands run (sandboxed or not), on its own line; a warning when there is no sandbox. */
  commands: HTMLElement;
  stop: HTMLButtonElement;
  lanes: LanesDom;
  steering: SteeringDom;
  feed: FeedDom;
  budget: BudgetDom;
  usage: UsageChartDom;
  triggers: TriggerStreamDom;
  latency: RequestLatencyDom;
  addedTasks: AddedTasksDom;
}

export function workerText(status: WorkerStatus): string {
  switch (status.state) {
    case "starting":
      return "Worker: starting…";
    case "ready":
      return `Worker: ready (pid ${status.pid})`;
    case "exited":
      return `Worker: stopped (${status.reason})`;
  }
}

function button(text: string, className: string, onClick: () => void): HTMLButtonElement {
  const node = el("button", className, text) as HTMLButtonElement;
  node.addEventListener("click", onClick);
  return node;
}

/** Builds the page once; `updatePanel` refreshes the parts that change. */
export function mountPanel(root: HTMLElement, on: PanelHandlers): PanelDom {
  const title = el("h1", "", "Swarmboard");
  const version = el("span", "badge", "");
  version.id = "version";
  const worker = el("span", "worker-status", "");
  worker.id = "worker-status";
  const summary = el("span", "swarm-summary", "No swarm yet");
  summary.id = "swarm-summary";
  const rules = el("div", "swarm-rules", "");
  rules.id = "swarm-rules";
  rules.hidden = true;
  const commands = el("div", "swarm-commands", "");
  commands.id = "swarm-commands";
  commands.hidden = true;
  const stop = button("Stop swarm", "secondary", () => on.action("stopSwarm"));
  const lanes = mountLanes({ stop: (id) => on.stopAgent(id), pause: (id, paused) => on.pauseAgent(id, paused) });
  const steering = mountSteering(on);
  const feed = mountFeed((path, line) => on.openFinding(path, line));
  const budget = mountBudget();
  const usage = mountUsageChart();
  const triggers = mountTriggerStream();
  const latency = mountRequestLatency();
  const addedTasks = mountAddedTasks();
  root.replaceChildren(
    el(
      "header",
      "",
      el("div", "title-row", title, version),
      el(
        "div",
        "actions",
        button("Launch swarm", "", () => on.action("launchSwarm")),
        stop,
        button("Check worker", "secondary", () => on.action("pingWorker")),
      ),
    ),
    el("section", "card status", el("span", "dot"), worker, el("span", "sep", "·"), summary),
    rules,
    commands,
    el(
      "div",
      "layout",
      el("main", "main-col", steering.root, addedTasks.root, lanes.root),
      el("aside", "side-col", budget.root, usage.root, triggers.root, latency.root, feed.root),
    ),
  );
  return {
    title,
    worker,
    summary,
    rules,
    commands,
    stop,
    lanes,
    steering,
    feed,
    budget,
    usage,
    triggers,
    latency,
    addedTasks,
  };
}

function elapsed(from: number, to: number): string {
  const s = Math.max(0, Math.round((to - from) / 1000));
  return s >= 60 ? `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}

export function updatePanel(dom: PanelDom, state: PanelState): void {
  setText(dom.worker, workerText(state.worker));
  dom.worker.dataset.state = state.worker.state;
  const version = document.getElementById("version");
  if (version) setText(version, `v${state.extensionVersion}`);
  const swarm = state.swarm;
  dom.stop.disabled = !swarm || !["running", "starting", "not served"].includes(swarm.status);
  dom.steering.update(!dom.stop.disabled, swarm?.agents ?? [], swarm?.questions ?? []);
  dom.triggers.update(swarm?.triggers);
  dom.latency.update(swarm?.latency);
  dom.addedTasks.update(swarm?.addedTasks);
  if (!swarm) {
    dom.rules.hidden = true;
    dom.commands.hidden = true;
    setText(dom.summary, "No swarm yet");
    return;
  }
  const mode = swarm.mode === undefined ? "" : runtimeModeLabel(swarm.mode);
  const parts = [
    `${swarm.recipe} · ${swarm.status}`,
    `${swarm.agents.length} agent${swarm.agents.length === 1 ? "" : "s"}`,
    elapsed(swarm.startedAt, swarm.endedAt ?? Date.now()),
    swarm.model ? `${swarm.model}${mode ? ` (${mode})` : ""}` : "",
    `goal: ${swarm.goal}`,
  ];
  setText(dom.summary, parts.filter((p) => p !== "").join(" · "));
  dom.rules.hidden = swarm.rules === undefined;
  setText(
    dom.rules,
    swarm.rules?.length ? `Agent rules in the trunk: ${swarm.rules.join(", ")}` : "No agent rules files in the trunk",
  );
  dom.commands.hidden = swarm.commands === undefined;
  dom.commands.classList.toggle("no-sandbox", swarm.commands?.startsWith("no sandbox") === true);
  setText(dom.commands, swarm.commands ?? "");
  dom.lanes.update(swarm.agents);
  dom.feed.update(swarm.findings, new Map(swarm.agents.map((a) => [a.id, a.colour])), swarm.id);
  dom.budget.update(swarm.budget, swarm.agents);
  dom.usage.update(swarm.usage);
}
