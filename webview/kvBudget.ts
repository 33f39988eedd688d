// The KV budget card: a sentence in plain words first, then one bar of the pool (the trunk's cells and how many
// agents own them, each agent's private cells in its lane colour, free cells); behind "Engine numbers": the bytes,
// how many more agents fit at the current average tail, and the decode figures (step time, rows per dispatch,
// tokens/s). Every number carries a `data-field` naming the kv-stats field it shows, so tests can read the page
// back and compare it with the worker's stats.
import type { BudgetView } from "../src/protocol/budgetView";
import type { AgentLaneView } from "../src/protocol/webviewMessages";
import { runtimeModeLabel } from "../src/protocol/runtime";
import { el, formatBytes, formatCount, setAttr, setText } from "./dom";

export interface BudgetDom {
  readonly root: HTMLElement;
  update(budget: BudgetView | undefined, agents: readonly AgentLaneView[]): void;
}

function figure(label: string, field: string): { node: HTMLElement; value: HTMLElement } {
  const value = el("span", "figure-value", "–");
  value.dataset.field = field;
  return { node: el("div", "figure", el("span", "figure-label", label), value), value };
}

function show(value: HTMLElement, n: number, text: string): void {
  setAttr(value, "data-value", String(n));
  setText(value, text);
}

export function mountBudget(): BudgetDom {
  const bar = el("div", "kv-bar");
  setAttr(bar, "role", "img");
  const trunk = el("div", "kv-seg kv-trunk");
  const free = el("div", "kv-seg kv-free");
  bar.append(trunk, free);
  const segments = new Map<string, HTMLElement>();
  const names = [
    "trunkCells",
    "trunkOwners",
    "usedCells",
    "freeCells",
    "reservedCells",
    "poolCells",
    "usedBytes",
    "poolBytes",
    "bytesPerCell",
    "moreAgentsFit",
    "meanStepMs",
    "dispatches",
    "rowsPerDispatch",
    "tokensPerSecond",
    "compactions",
    "restBytes",
    "fixedRestBytes",
    "perAgentRestBytes",
    "moreAgentsByMemory",
  ] as const;
  const labels: Record<(typeof names)[number], string> = {
    trunkCells: "Trunk cells",
    trunkOwners: "Agents owning the trunk",
    usedCells: "Used cells",
    freeCells: "Free cells",
    reservedCells: "Reserved cells",
    poolCells: "Pool cells",
    usedBytes: "Used",
    poolBytes: "Pool",
    bytesPerCell: "Bytes per cell",
    moreAgentsFit: "More agents that fit",
    meanStepMs: "Step time",
    dispatches: "Dispatches",
    rowsPerDispatch: "Rows per dispatch",
    tokensPerSecond: "Tokens/s",
    compactions: "Compactions",
    restBytes: "Rest of memory",
    fixedRestBytes: "Of it fixed",
    perAgentRestBytes: "Of it per agent",
    moreAgentsByMemory: "Agents memory holds",
  };
  const figures = Object.fromEntries(names.map((n) => [n, figure(labels[n], n)])) as Record<
    (typeof names)[number],
    ReturnType<typeof figure>
  >;
  setAttr(figures.restBytes.node, "title", "The worker's resident memory besides the model's weights and the KV pool");
  const mode = el("span", "badge", "");
  const empty = el(
    "p",
    "muted",
    "No KV cells in use: the budget appears while a swarm runs and its worker reports the cache.",
  );
  const grid = el("div", "figures", ...names.map((n) => figures[n].node));
  // Where the cells live and why the pool has its size: words, not figures.
  const where = el("p", "muted", "");
  where.dataset.field = "placement";
  const origin = el("p", "muted", "");
  origin.dataset.field = "poolOrigin";
  // The worker's memory beside weights and KV, in words (resident = weights + KV + rest; fixed and per agent).
  const memory = el("p", "muted", "");
  memory.dataset.field = "memory";
  // Plain words first: agents, memory of the cache in use, room for more; the engine's figures behind a toggle.
  const summary = el("p", "budget-summary", "");
  summary.dataset.field = "summary";
  // A pool shared with other swarms explains why this swarm's room is smaller than the free cells: said in words.
  const share = el("p", "muted", "");
  share.dataset.field = "share";
  const details = el("details", "budget-details", el("summary", "", "Engine numbers"), grid, where, origin, memory);
  const root = el(
    "section",
    "card budget",
    el("div", "card-title", el("h2", "", "KV memory budget"), mode),
    empty,
    summary,
    share,
    bar,
    details,
  );
  root.id = "kv-budget";
  setAttr(root, "aria-label", "KV memory budget");

  const update = (b: BudgetView | undefined, agents: readonly AgentLaneView[]) => {
    empty.hidden = b !== undefined;
    bar.hidden = b === undefined;
    summary.hidden = b === undefined;
    details.hidden = b === undefined;
    where.hidden = b?.placement === undefined && b?.engine === undefined;
    origin.hidden = b?.poolOrigin === undefined;
    share.hidden = b?.share === undefined;
    memory.hidden = b?.memory === undefined;
    for (const n of ["restBytes", "fixedRestBytes", "perAgentRestBytes", "moreAgentsByMemory"] as const)
      figures[n].node.hidden = b?.memory === undefined;
    if (!b) return;
    setText(summary, b.summary);
    setText(share, b.share ?? "");
    const runsOn = b.placement === undefined ? "" : `${b.kvType ?? "KV"} cells; runs on ${b.placement}`;
    setText(where, b.engine === undefined ? runsOn : `Remote engine: ${b.engine}`);
    setText(origin, b.poolOrigin === undefined ? "" : `Pool: ${b.poolOrigin}`);
    setText(mode, runtimeModeLabel(b.mode));
    const pool = Math.max(1, b.poolCells);
    const pct = (cells: number) => `${((100 * cells) / pool).toFixed(3)}%`;
    trunk.style.width = pct(b.trunkCells);
    setText(trunk, b.trunkCells / pool > 0.08 ? `trunk ×${b.trunkOwners}` : "");
    setAttr(trunk, "title", `trunk: ${formatCount(b.trunkCells)} cells, owned by ${b.trunkOwners} agent(s)`);
    const live = new Set<string>();
    let before: Node = free;
    for (const a of [...agents].reverse()) {
      if (a.privateCells <= 0) continue;
      live.add(a.id);
      let seg = segments.get(a.id);
      if (!seg) {
        seg = el("div", `kv-seg kv-agent c${a.colour}`);
        segments.set(a.id, seg);
      }
      if (seg.nextSibling !== before) bar.insertBefore(seg, before);
      before = seg;
      seg.style.width = pct(a.privateCells);
      setAttr(seg, "title", `${a.id}: ${formatCount(a.privateCells)} private cells`);
    }
    for (const [id, seg] of segments)
      if (!live.has(id)) {
        seg.remove();
        segments.delete(id);
      }
    free.style.width = pct(b.freeCells);
    setAttr(
      bar,
      "aria-label",
      `KV pool of ${formatCount(b.poolCells)} cells: trunk ${formatCount(b.trunkCells)} owned by ${b.trunkOwners} agents, ${formatCount(b.usedCells)} used, ${formatCount(b.freeCells)} free`,
    );
    for (const n of [
      "trunkCells",
      "trunkOwners",
      "usedCells",
      "freeCells",
      "reservedCells",
      "poolCells",
      "dispatches",
    ] as const)
      show(figures[n].value, b[n], formatCount(b[n]));
    show(figures.usedBytes.value, b.usedBytes, formatBytes(b.usedBytes));
    show(figures.poolBytes.value, b.poolBytes, formatBytes(b.poolBytes));
    show(figures.bytesPerCell.value, b.bytesPerCell, `${formatBytes(b.bytesPerCell)}${b.kvType ? ` ${b.kvType}` : ""}`);
    if (b.moreAgentsFit === null) {
      figures.moreAgentsFit.value.removeAttribute("data-value");
      setText(figures.moreAgentsFit.value, "no tails yet");
    } else
      show(
        figures.moreAgentsFit.value,
        b.moreAgentsFit,
        `${formatCount(b.moreAgentsFit)}${b.moreAgentsLimitedBy === "memory" ? " (memory)" : ""}`,
      );
    showMemory(b.memory);
    show(figures.meanStepMs.value, b.meanStepMs, `${b.meanStepMs.toFixed(1)} ms`);
    show(figures.rowsPerDispatch.value, b.rowsPerDispatch, b.rowsPerDispatch.toFixed(2));
    show(figures.tokensPerSecond.value, b.tokensPerSecond, b.tokensPerSecond.toFixed(1));
    // Agents whose tail reached its share were forked again from the trunk with a brief: how often, what it freed.
    const compactions = b.compactions ?? 0;
    show(figures.compactions.value, compactions, formatCount(compactions));
    setAttr(figures.compactions.value, "title", `${formatCount(b.compactedCells ?? 0)} cells released by re-forks`);
  };
  const showMemory = (m: BudgetView["memory"]) => {
    if (m === undefined) return;
    setText(memory, `Worker memory: ${m.text}`);
    show(figures.restBytes.value, m.restBytes, formatBytes(m.restBytes));
    show(figures.fixedRestBytes.value, m.fixedRestBytes, formatBytes(m.fixedRestBytes));
    if (m.perAgentRestBytes === undefined) {
      figures.perAgentRestBytes.value.removeAttribute("data-value");
      setText(figures.perAgentRestBytes.value, "not measured yet");
    } else show(figures.perAgentRestBytes.value, m.perAgentRestBytes, formatBytes(m.perAgentRestBytes));
    if (m.moreAgentsByMemory === undefined) {
      figures.moreAgentsByMemory.value.removeAttribute("data-value");
      setText(figures.moreAgentsByMemory.value, "not measured yet");
    } else show(figures.moreAgentsByMemory.value, m.moreAgentsByMemory, formatCount(m.moreAgentsByMemory));
  };
  return { root, update };
}

/** Reads the budget's numbers back from the DOM (for the probe). */
export function readBudget(root: HTMLElement): Record<string, number> {
  const out: Record<string, number> = {};
  for (const node of Array.from(root.querySelectorAll<HTMLElement>("[data-field][data-value]"))) {
    out[node.dataset.field ?? ""] = Number(node.dataset.value);
  }
  return out;
}
