// A standing swarm's latency per request: p50/p95 from a trigger's arrival to its worker's result, one line per
// trigger source (the host formats them from the same fold the CLI's watch prints). Hidden until the router has
// assigned a trigger, and for swarms that take none.
import type { SwarmPanelView } from "../src/protocol/webviewMessages";
import { el, setAttr } from "./dom";

type LatencyView = SwarmPanelView["latency"];

export interface RequestLatencyDom {
  readonly root: HTMLElement;
  update(view: LatencyView): void;
}

export function mountRequestLatency(): RequestLatencyDom {
  const list = el("ul", "latency-list");
  setAttr(list, "aria-label", "Latency per request");
  const root = el("section", "card latency-card", el("div", "card-title", el("h2", "", "Latency per request")), list);
  root.id = "latency";
  root.hidden = true;
  return {
    root,
    update(view) {
      root.hidden = view === undefined || view.length === 0;
      list.replaceChildren(
        ...(view ?? []).map((k) => {
          const row = el("li", "", k.text);
          row.dataset.kind = k.kind;
          return row;
        }),
      );
    },
  };
}
