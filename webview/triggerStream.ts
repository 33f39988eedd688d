// A standing swarm's trigger stream: the fast path's counters (dropped by rules, sent straight to an owner, sent
// to the router, decided by it) and the newest triggers with where each went and who owns it. Hidden for swarms
// that take no triggers. Rebuilt from the state on each update (at most a few dozen rows).
import type { TriggerStreamView } from "../src/protocol/webviewMessages";
import { clockTime, el, setAttr, setText } from "./dom";

export interface TriggerStreamDom {
  readonly root: HTMLElement;
  update(view: TriggerStreamView | undefined): void;
  /** The rows shown (tests compare them with the store). */
  rows(): Array<{ id: string; owner?: string; text: string }>;
  /** The queue line and the not-served notice as shown (empty when hidden). */
  summary(): { queue: string; notServed: string };
}

export function mountTriggerStream(): TriggerStreamDom {
  const counts = el("div", "trigger-counts", "");
  const queue = el("div", "trigger-queue", "");
  // Why nothing serves the swarm, in the card the person looks at for its triggers.
  const unserved = el("div", "trigger-unserved", "");
  setAttr(unserved, "role", "alert");
  const list = el("ol", "feed trigger-list");
  setAttr(list, "aria-label", "Triggers");
  const root = el(
    "section",
    "card trigger-card",
    el("div", "card-title", el("h2", "", "Triggers")),
    unserved,
    queue,
    counts,
    list,
  );
  root.id = "triggers";
  root.hidden = true;
  return {
    root,
    summary: () => ({ queue: queue.textContent ?? "", notServed: unserved.hidden ? "" : (unserved.textContent ?? "") }),
    rows: () =>
      [...list.querySelectorAll<HTMLElement>("li")].map((li) => ({
        id: li.dataset.trigger ?? "",
        ...(li.dataset.owner !== undefined ? { owner: li.dataset.owner } : {}),
        text: li.textContent ?? "",
      })),
    update(view) {
      root.hidden = view === undefined;
      if (view === undefined) return;
      unserved.hidden = view.notServed === undefined;
      setText(unserved, view.notServed ?? "");
      setText(queue, view.queue);
      setText(
        counts,
        `${view.dropped} dropped by rules · ${view.direct} straight to an owner · ${view.router} to the router · ` +
          `${view.decisions} decided`,
      );
      list.replaceChildren(
        ...view.recent.map((t) => {
          const row = el(
            "li",
            "finding",
            el(
              "div",
              "finding-head",
              el("span", "kind", t.source),
              el("span", `trigger-state trigger-${t.state}`, t.state),
              el("span", "", clockTime(t.time)),
            ),
            el("div", "finding-text", `${t.what} → ${t.decision}`),
          );
          row.dataset.trigger = t.id;
          if (t.owner !== undefined) row.dataset.owner = t.owner;
          return row;
        }),
      );
    },
  };
}
