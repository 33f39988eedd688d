// One lane per agent: its state, claim, tokens and private cells, a timeline of its calls, results,
// findings and messages, and the text it is producing now. Lanes are keyed by agent id and updated in
// place: a new timeline item is appended, never the whole lane rebuilt, so 16 busy agents stay smooth.
import type { AgentLaneView } from "../src/protocol/webviewMessages";
import { clockTime, el, formatCount, setAttr, setText } from "./dom";

const itemsKept = 60;
/** Agent states that can still be stopped. */
const liveStates = new Set(["starting", "gather", "claim", "act", "verify", "merge", "paused", "stalled"]);
/** VS Code's own icons (the codicon font, shipped in dist/webview) for each kind of timeline item. */
const kindIcon: Record<string, string> = {
  state: "pulse",
  thought: "comment",
  call: "arrow-right",
  result: "arrow-left",
  finding: "lightbulb",
  message: "mail",
};

interface LaneDom {
  readonly root: HTMLElement;
  readonly state: HTMLElement;
  readonly claim: HTMLElement;
  readonly meta: HTMLElement;
  readonly timeline: HTMLElement;
  readonly current: HTMLElement;
  readonly stop: HTMLElement;
  /** Pause, or Resume when the agent is paused. */
  readonly pause: HTMLElement;
  /** Keys of the items shown, oldest first. */
  keys: string[];
}

const itemKey = (i: AgentLaneView["lane"][number]) => `${i.time}|${i.kind}|${i.text}`;

function itemNode(i: AgentLaneView["lane"][number]): HTMLElement {
  const glyph = el("span", `glyph codicon codicon-${kindIcon[i.kind] ?? "circle-small"}`);
  setAttr(glyph, "aria-hidden", "true");
  const node = el(
    "li",
    `item kind-${i.kind}${i.ok === false ? " failed" : ""}`,
    glyph,
    el("time", "muted", clockTime(i.time)),
    " ",
    el("span", "item-text", i.text),
  );
  return node;
}

export interface LanesDom {
  readonly root: HTMLElement;
  update(agents: readonly AgentLaneView[]): void;
  focus(agentId: string): void;
  ids(): string[];
}

export interface LaneHandlers {
  stop(agentId: string): void;
  pause(agentId: string, paused: boolean): void;
}

export function mountLanes(on: LaneHandlers): LanesDom {
  const list = el("div", "lanes");
  setAttr(list, "role", "list");
  const empty = el("p", "muted", "Each agent's live timeline appears here once a swarm runs.");
  const root = el("section", "card lanes-card", el("h2", "", "Agent lanes"), empty, list);
  root.id = "lanes";
  const lanes = new Map<string, LaneDom>();

  const create = (a: AgentLaneView): LaneDom => {
    const state = el("span", "state-badge", a.state);
    const stop = el("button", "icon-button", "■");
    setAttr(stop, "title", `Stop ${a.id}`);
    setAttr(stop, "aria-label", `Stop ${a.id}`);
    stop.addEventListener("click", () => on.stop(a.id));
    const pause = el("button", "icon-button", el("span", "codicon codicon-debug-pause"));
    // The button's label follows the state (update below): it pauses a working agent, resumes a paused one.
    pause.addEventListener("click", () => on.pause(a.id, pause.dataset.paused !== "true"));
    const claim = el("div", "claim", "");
    const meta = el("div", "lane-meta muted", "");
    const timeline = el("ol", "timeline");
    setAttr(timeline, "aria-label", `${a.id} timeline`);
    const current = el("pre", "current", "");
    setAttr(current, "aria-label", `${a.id} is writing`);
    const root = el(
      "article",
      `lane c${a.colour}`,
      el(
        "div",
        "lane-head",
        el("span", "swatch"),
        el("strong", "", a.id),
        el("span", "muted", a.role),
        state,
        pause,
        stop,
      ),
      claim,
      meta,
      timeline,
      current,
    );
    root.dataset.agent = a.id;
    setAttr(root, "role", "listitem");
    setAttr(root, "tabindex", "0");
    setAttr(root, "aria-label", `Agent ${a.id}, ${a.role}`);
    return { root, state, claim, meta, timeline, current, stop, pause, keys: [] };
  };

  const updateTimeline = (lane: LaneDom, items: AgentLaneView["lane"]) => {
    const keys = items.map(itemKey);
    const last = lane.keys[lane.keys.length - 1];
    const from = last === undefined ? 0 : keys.lastIndexOf(last) + 1;
    if (last !== undefined && from === 0) {
      // The shown items fell out of the window entirely: rebuild this lane's list once.
      lane.timeline.replaceChildren(...items.map(itemNode));
      lane.keys = keys;
    } else if (from < keys.length) {
      const atBottom = lane.timeline.scrollHeight - lane.timeline.scrollTop - lane.timeline.clientHeight < 24;
      lane.timeline.append(...items.slice(from).map(itemNode));
      lane.keys.push(...keys.slice(from));
      while (lane.keys.length > itemsKept) {
        lane.timeline.firstElementChild?.remove();
        lane.keys.shift();
      }
      if (atBottom) lane.timeline.scrollTop = lane.timeline.scrollHeight;
    }
  };

  const update = (agents: readonly AgentLaneView[]) => {
    empty.hidden = agents.length > 0;
    const seen = new Set<string>();
    for (const a of agents) {
      seen.add(a.id);
      let lane = lanes.get(a.id);
      if (!lane) {
        lane = create(a);
        lanes.set(a.id, lane);
        list.append(lane.root);
      }
      setText(lane.state, a.state);
      lane.state.dataset.state = a.state;
      // Only a live agent can be stopped (an interrupted one has no worker left to stop it).
      lane.stop.hidden = !liveStates.has(a.state);
      lane.pause.hidden = !liveStates.has(a.state) || a.state === "starting";
      const paused = a.state === "paused";
      lane.pause.dataset.paused = String(paused);
      const glyph = lane.pause.firstElementChild as HTMLElement;
      setAttr(glyph, "class", `codicon codicon-${paused ? "debug-continue" : "debug-pause"}`);
      setAttr(lane.pause, "title", `${paused ? "Resume" : "Pause"} ${a.id}`);
      setAttr(lane.pause, "aria-label", `${paused ? "Resume" : "Pause"} ${a.id}`);
      setText(lane.claim, a.claim ? `Claim: ${a.claim}` : "No claim");
      setText(
        lane.meta,
        `${formatCount(a.tokens)} tokens · ${formatCount(a.privateCells)} private cells${a.branch ? ` · ${a.branch}` : ""}`,
      );
      updateTimeline(lane, a.lane);
      setText(lane.current, a.current);
    }
    for (const [id, lane] of lanes) {
      if (!seen.has(id)) {
        lane.root.remove();
        lanes.delete(id);
      }
    }
    keepOrder(agents.map((a) => a.id));
  };

  // Lanes follow the view's order. A lane is appended when its agent is first seen, so a view rebuilt in another
  // order (the record read back at the swarm's end) would leave the page's order stale; moving nodes resets their
  // scroll, so it is done only when the order differs.
  const keepOrder = (order: readonly string[]) => {
    const shown = [...lanes.keys()];
    if (shown.length === order.length && shown.every((id, i) => id === order[i])) return;
    const roots = order.map((id) => [id, lanes.get(id)!] as const);
    lanes.clear();
    for (const [id, lane] of roots) lanes.set(id, lane);
    list.replaceChildren(...roots.map(([, lane]) => lane.root));
  };

  const focus = (agentId: string) => {
    const lane = lanes.get(agentId);
    if (!lane) return;
    lane.root.scrollIntoView({ block: "nearest" });
    lane.root.focus();
  };

  return { root, update, focus, ids: () => [...lanes.keys()] };
}
