// Renders the panel from its state. Built with DOM calls and textContent only (never innerHTML), so no
// text from the host can become markup.
import type { PanelState, WorkerStatus } from "../src/protocol/webviewMessages";

export interface PanelDom {
  title: HTMLElement;
  worker: HTMLElement;
}

type Child = Node | string;

function el(tag: string, className: string, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag);
  if (className) node.className = className;
  node.append(...children);
  return node;
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

function placeholder(title: string, text: string): HTMLElement {
  return el("section", "card placeholder", el("h2", "", title), el("p", "muted", text));
}

/** Builds the page once; `update` refreshes the parts that change. */
export function mountPanel(root: HTMLElement, onAction: (action: "pingWorker" | "launchSwarm") => void): PanelDom {
  const title = el("h1", "", "Swarmboard");
  const version = el("span", "badge", "");
  version.id = "version";
  const worker = el("span", "worker-status", "");
  worker.id = "worker-status";
  const check = el("button", "secondary", "Check worker");
  check.addEventListener("click", () => onAction("pingWorker"));
  const launch = el("button", "", "Launch swarm");
  launch.addEventListener("click", () => onAction("launchSwarm"));

  root.replaceChildren(
    el("header", "", el("div", "title-row", title, version), el("div", "actions", launch, check)),
    el("section", "card status", el("span", "dot"), worker),
    el(
      "div",
      "grid",
      placeholder("Agent lanes", "Each agent's live timeline appears here once a swarm runs."),
      placeholder("Findings", "Facts, failures and claims the agents share land here."),
      placeholder("KV memory budget", "Trunk cells shared by all agents, each agent's private tail, and room for more."),
    ),
  );
  return { title, worker };
}

export function updatePanel(dom: PanelDom, state: PanelState): void {
  dom.worker.textContent = workerText(state.worker);
  dom.worker.dataset.state = state.worker.state;
  const version = document.getElementById("version");
  if (version) version.textContent = `v${state.extensionVersion}`;
}
