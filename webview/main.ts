// The panel's script. It reads its initial state from inert JSON in the page (no inline script), renders,
// says `ready`, and then handles host messages, each parsed with its schema; one that fails is refused and
// reported back to the host instead of being acted on. States are applied once per animation frame (the
// newest wins), so a burst of updates costs one DOM pass.
import {
  hostToWebviewSchema,
  initialStateElementId,
  panelStateSchema,
  type HostToWebview,
  type PanelState,
} from "../src/protocol/webviewMessages";
import { readBudget } from "./kvBudget";
import { mountPanel, updatePanel, type PanelDom } from "./render";
import { rememberShownSwarm, send, sendUnchecked } from "./vscodeApi";
import { formatZodIssues } from "../src/protocol/zodIssues";

function readInitialState(): PanelState | undefined {
  const text = document.getElementById(initialStateElementId)?.textContent ?? "";
  try {
    const parsed = panelStateSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
    send({ type: "rejected", reason: `initial state failed its schema: ${parsed.error.message}` });
  } catch (err) {
    send({ type: "rejected", reason: `initial state is not JSON: ${String(err)}` });
  }
  return undefined;
}

let pending: PanelState | undefined;
let frame: number | undefined;

function flush(dom: PanelDom): void {
  if (frame !== undefined) cancelAnimationFrame(frame);
  frame = undefined;
  const state = pending;
  pending = undefined;
  if (state) show(dom, state);
}

function show(dom: PanelDom, state: PanelState): void {
  updatePanel(dom, state);
  rememberShownSwarm(state.swarm?.id);
}

function schedule(dom: PanelDom, state: PanelState): void {
  pending = state;
  if (frame === undefined) frame = requestAnimationFrame(() => flush(dom));
}

function domFacts(dom: PanelDom) {
  const budget = document.getElementById("kv-budget");
  return {
    laneIds: dom.lanes.ids(),
    findingTexts: dom.feed.texts(),
    budget: budget ? readBudget(budget) : {},
    imgElements: document.querySelectorAll("img").length,
    // Inside the app only: the page's own scripts (and VS Code's) live outside #app.
    scriptElements: document.querySelectorAll("#app script").length,
    injectedRan: (window as unknown as Record<string, unknown>).swarmboardInjected !== undefined,
    questionIds: dom.steering.questionIds(),
    recipients: dom.steering.recipients(),
    triggers: dom.triggers.rows(),
    triggerSummary: dom.triggers.summary(),
    addedTasks: dom.addedTasks.rows(),
  };
}

function handle(dom: PanelDom, msg: HostToWebview): void {
  switch (msg.type) {
    case "state":
      schedule(dom, msg.state);
      return;
    case "focusLane":
      flush(dom);
      dom.lanes.focus(msg.agentId);
      return;
    case "probe":
      // A probe reads what the page shows: apply a waiting state first (a hidden page gets no frames).
      flush(dom);
      if (msg.reply === "malformed") {
        // Deliberately fails webviewToHostSchema (rendered must be an object): the host must reject it.
        sendUnchecked({ type: "probeReply", nonce: msg.nonce, rendered: "not-an-object" });
        return;
      }
      send({
        type: "probeReply",
        nonce: msg.nonce,
        rendered: { title: dom.title.textContent ?? "", worker: dom.worker.textContent ?? "" },
        dom: domFacts(dom),
      });
      return;
  }
}

function main(): void {
  const root = document.getElementById("app");
  if (!root) throw new Error("Swarmboard panel: the #app element is missing from the page.");
  const dom = mountPanel(root, {
    action: (action) => send({ type: "action", action }),
    openFinding: (path, line) => send({ type: "openFinding", path, ...(line ? { line } : {}) }),
    stopAgent: (agentId) => send({ type: "stopAgent", agentId }),
    pauseAgent: (agentId, paused) => send({ type: "pauseAgent", agentId, paused }),
    sendMessage: (to, text) => send({ type: "sendMessage", to, text }),
    addTask: (text) => send({ type: "addTask", text }),
    answer: (questionId, text) => send({ type: "answerQuestion", questionId, text }),
  });
  const initial = readInitialState();
  if (initial) show(dom, initial);

  window.addEventListener("message", (event: MessageEvent<unknown>) => {
    const parsed = hostToWebviewSchema.safeParse(event.data);
    if (!parsed.success) {
      const issues = formatZodIssues(parsed.error, "(message)");
      send({ type: "rejected", reason: `host message failed its schema (${issues})`.slice(0, 2000) });
      return;
    }
    handle(dom, parsed.data);
  });
  send({ type: "ready" });
}

main();
