// A small live chart of the run: KV cells in use (as a share of the pool) and aggregate tokens/s, one point per
// kv-stats report. People read a curve faster than numbers. SVG built with DOM calls only (no markup strings);
// colours come from the theme's chart variables.
import type { UsageSample } from "../src/protocol/webviewMessages";
import { el, formatCount, setAttr, setText } from "./dom";

const svgNs = "http://www.w3.org/2000/svg";
const width = 300;
const height = 80;

export interface UsageChartDom {
  readonly root: HTMLElement;
  update(samples: readonly UsageSample[] | undefined): void;
}

function svg(tag: string, attrs: Record<string, string>): SVGElement {
  const node = document.createElementNS(svgNs, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

/** Polyline points of `values` scaled to the chart, time on x (first sample left, last right). */
export function linePoints(samples: readonly UsageSample[], value: (s: UsageSample) => number, max: number): string {
  if (samples.length === 0) return "";
  const t0 = samples[0]!.time;
  const span = Math.max(1, samples[samples.length - 1]!.time - t0);
  return samples
    .map((s) => {
      const x = samples.length === 1 ? width : ((s.time - t0) / span) * width;
      const y = height - (Math.min(max, Math.max(0, value(s))) / Math.max(1e-9, max)) * height;
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(" ");
}

export function mountUsageChart(): UsageChartDom {
  const cells = svg("polyline", { class: "usage-line usage-cells", fill: "none" });
  const rate = svg("polyline", { class: "usage-line usage-rate", fill: "none" });
  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    preserveAspectRatio: "none",
    class: "usage-svg",
    role: "img",
  });
  chart.append(cells, rate);
  const empty = el("p", "muted", "The curve appears once the worker reports KV use.");
  const cellsLegend = el("span", "legend legend-cells", "");
  const rateLegend = el("span", "legend legend-rate", "");
  const root = el(
    "section",
    "card usage",
    el("div", "card-title", el("h2", "", "Over time")),
    empty,
    chart as unknown as HTMLElement,
    el("div", "usage-legend", cellsLegend, rateLegend),
  );
  root.id = "usage-chart";
  setAttr(root, "aria-label", "KV cells in use and tokens per second over the run");

  const update = (samples: readonly UsageSample[] | undefined) => {
    const shown = samples ?? [];
    empty.hidden = shown.length > 0;
    (chart as unknown as HTMLElement).hidden = shown.length === 0;
    const last = shown[shown.length - 1];
    if (!last) {
      setText(cellsLegend, "");
      setText(rateLegend, "");
      return;
    }
    const maxRate = Math.max(...shown.map((s) => s.tokensPerSecond), 1);
    cells.setAttribute(
      "points",
      linePoints(shown, (s) => s.usedCells / Math.max(1, s.poolCells), 1),
    );
    rate.setAttribute(
      "points",
      linePoints(shown, (s) => s.tokensPerSecond, maxRate),
    );
    setText(cellsLegend, `KV cells in use: ${formatCount(last.usedCells)} of ${formatCount(last.poolCells)}`);
    setText(rateLegend, `tokens/s: ${last.tokensPerSecond.toFixed(1)} (peak ${maxRate.toFixed(1)})`);
    root.dataset.samples = String(shown.length);
  };
  return { root, update };
}
