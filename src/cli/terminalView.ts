// What the CLI shows while a swarm runs. On a TTY: a live block with one line per agent (state, claim,
// tokens, private KV cells, the text it is writing now), the KV budget and tokens/s, redrawn in place as the
// batched events arrive. Otherwise: plain lines for the events a person reads in a log (states, thoughts, tool
// results, findings), never the token stream. The block is a projection of the same view the extension shows
// (src/core/swarmView.ts's reduceSwarm), never its own fold.
import { poolShareText } from "../core/poolShare";
import { kindLatencyText, latencyByKind } from "../core/requestLatency";
import { emptySwarm, reduceSwarm, type AgentView, type SwarmViewState } from "../core/swarmView";
import { describeWorkerMemory } from "../core/workerMemory";
import type { SwarmStats } from "../protocol/runtime";
import type { SwarmEvent } from "../protocol/swarmEvents";
import type { FastPathRoute, TriggerCounts } from "../protocol/triggers";

function kib(bytes: number): string {
  return bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
}

/** The cell type and the backend, when the worker said them: " Q8_0 36 B/cell on cuda (NVIDIA H200) 25/25 layers, KV in vram". */
function where(stats: SwarmStats): string {
  const type = stats.kvType === undefined ? "" : ` ${stats.kvType} ${stats.bytesPerCell.toFixed(0)} B/cell`;
  const p = stats.placement;
  if (p === undefined) return type;
  if (p.backend === "cpu") return `${type} on cpu`;
  const devices = p.devices.length === 0 ? "" : ` (${p.devices.join(", ")})`;
  return `${type} on ${p.backend}${devices} ${p.gpuLayers}/${p.modelLayers} layers, KV in ${p.kvOn}`;
}

export function budgetLine(stats: SwarmStats): string {
  const share = poolShareText(stats.share, stats.poolCells);
  return (
    `KV ${stats.mode}${where(stats)}: ${stats.usedCells}/${stats.poolCells} cells (${kib(stats.usedBytes)}), trunk ${stats.trunkCells} cells x ${stats.trunkOwners} owners, ` +
    `free ${stats.freeCells}; ${stats.tokensPerSecond.toFixed(1)} tok/s, ${stats.rowsPerDispatch.toFixed(1)} rows/dispatch` +
    (stats.memory === undefined ? "" : `; memory ${describeWorkerMemory(stats.memory)}`) +
    (share === undefined ? "" : `; ${share}`)
  );
}

/** Compactions by re-fork, as the budget line ends: how many and the cells they released. */
export function compactionsLine(view: Pick<SwarmViewState, "compactions" | "compactedCells">): string {
  return view.compactions === 0
    ? ""
    : `; ${view.compactions} compaction${view.compactions === 1 ? "" : "s"} released ${view.compactedCells} cells`;
}

/** The tail of what an agent is writing now, on one line. */
export function writingNow(a: AgentView, chars: number): string {
  if (a.turnEnded) return "";
  const text = a.current.replace(/\s+/g, " ").trim();
  return text === "" ? "" : `> ${text.length > chars ? `…${text.slice(-(chars - 1))}` : text}`;
}

/**
 * One agent's line: id, state, claim, tokens, private cells, compactions, and what it is writing now (its thought
 * or call, live) or else its latest tool result.
 */
function agentRow(a: AgentView, stats: SwarmStats | undefined): string {
  const cells = stats?.agents.find((x) => x.agentId === a.id)?.privateCells ?? 0;
  const last = writingNow(a, 50) || ([...a.lane].reverse().find((item) => item.kind === "result")?.text ?? "");
  const claim = (a.claim ?? "-").slice(0, 30).padEnd(30);
  const tokens = `${String(a.tokens).padStart(6)} tok ${String(cells).padStart(6)} cells`;
  const compacted = a.compactions > 0 ? ` x${a.compactions} compacted` : "";
  return `  ${a.id.padEnd(14)} ${a.state.padEnd(9)} ${claim} ${tokens}${compacted}  ${last.slice(0, 50)}`;
}

/** The fast path's counters on one line. */
export function countsText(c: TriggerCounts): string {
  return `dropped ${c.dropped}, direct ${c.direct}, router ${c.router}`;
}

function routeText(route: FastPathRoute): string {
  switch (route.route) {
    case "dropped":
      return `dropped by rule ${route.rule} (${route.reason})`;
    case "direct":
      return `to ${route.agentId} (owns ${route.thread})`;
    case "parked":
      return `waits for the owner of ${route.thread}`;
    case "router":
      return "to the router";
  }
}

function decisionText(e: Extract<SwarmEvent, { type: "trigger-decision" }>): string {
  const d = e.decision;
  if (e.agentId !== undefined) return `  ${e.agentId} owns ${e.triggerId}`;
  switch (d.action) {
    case "assign":
      return `  router ${e.by}: assign ${e.triggerId} to a new worker: ${d.task.slice(0, 120)}`;
    case "forward":
      return `  router ${e.by}: forward ${e.triggerId} to ${d.agentId}: ${d.note.slice(0, 120)}`;
    case "reply":
      return `  router ${e.by} replies to you (${e.triggerId}): ${d.text}`;
    case "hold":
      return `  router ${e.by}: hold ${e.triggerId} (${d.reason.slice(0, 120)})`;
    case "drop":
      return `  router ${e.by}: drop ${e.triggerId} (${d.reason.slice(0, 120)})`;
  }
}

export class TerminalView {
  private view: SwarmViewState | undefined;
  private drawnLines = 0;

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly live: boolean,
  ) {}

  onEvents(events: readonly SwarmEvent[]): void {
    for (const e of events) {
      this.view = reduceSwarm(this.view ?? emptySwarm(e.swarmId, e.time), e);
      this.log(e);
      if (!this.live) this.logLatency(e);
    }
    if (this.live) this.redraw();
  }

  /** The lines a person reads in a log, one per event worth reading. */
  private log(e: SwarmEvent): void {
    switch (e.type) {
      case "swarm-started":
        this.print(
          `swarm ${e.swarmId}: recipe ${e.recipe}, model ${e.model.path} (${e.mode}), trunk ${e.trunkTokens} tokens decoded once${e.rules?.length ? `; rules: ${e.rules.map((r) => r.path).join(", ")}` : ""}${e.disk ? `; disk: ${e.disk.text}` : ""}${e.verification ? `; ${e.verification}` : ""}${e.commands ? `; ${e.commands}` : ""}`,
        );
        break;
      case "agent-added":
        this.print(
          `+ ${e.agent.id} (${e.agent.role}${e.agent.parent ? `, sub-agent of ${e.agent.parent}` : ""})${e.agent.branch ? ` on ${e.agent.branch}` : ""}`,
        );
        break;
      case "agent-state":
        if (!this.live) this.print(`  ${e.agentId}: ${e.state}${e.reason ? ` (${e.reason})` : ""}`);
        break;
      case "tool-call":
        // A log gets each thought once, whole lines cut short, when its call is made (never the token stream).
        if (!this.live && e.thought)
          this.print(`  ${e.agentId} thinks: ${e.thought.replace(/\s+/g, " ").slice(0, 160)}`);
        break;
      case "tool-result":
        if (!this.live) this.print(`  ${e.agentId}: ${e.ok ? "ok" : "error"} ${e.summary}`);
        break;
      case "agent-compacted":
        if (!this.live)
          this.print(
            `  ${e.agentId}: compacted (#${e.compaction}), released ${e.releasedCells} of its ${e.shareCells}-cell share; brief ${e.briefTokens} tokens`,
          );
        break;
      case "board-entry":
        if (e.entry.kind !== "MESSAGE" && e.entry.kind !== "CLAIM" && e.entry.kind !== "RELEASE")
          this.print(`  [${e.entry.kind}] ${e.entry.author}: ${e.entry.text.slice(0, 160)}`);
        break;
      case "approval-request":
        this.print(`  ? ${e.agentId} asks to run: ${e.command} (${e.reason})`);
        break;
      case "user-question":
        this.print(
          `  ? ${e.agentId} asks you (${e.questionId}, ${Math.round(e.timeoutMs / 1000)} s): ${e.question}\n    answer with: @answer ${e.questionId} <text>`,
        );
        break;
      case "user-question-ended":
        if (e.outcome !== "answered") this.print(`  ${e.questionId} of ${e.agentId}: ${e.outcome}, it goes on`);
        break;
      case "trigger":
        this.print(`  trigger ${e.trigger.id} (${e.trigger.source}): ${routeText(e.route)}  [${countsText(e.counts)}]`);
        break;
      case "trigger-decision":
        this.print(decisionText(e));
        break;
      case "swarm-ended":
        for (const line of this.latencyLines()) this.print(line);
        this.print(`swarm ${e.outcome}: ${e.reason}`);
        break;
      default:
        break;
    }
  }

  /** A standing swarm's p50/p95 per kind, one line each (none before the router assigned a trigger). */
  private latencyLines(): string[] {
    return latencyByKind(this.view?.requests?.requests ?? []).map(
      (k) => `  latency per request: ${kindLatencyText(k)}`,
    );
  }

  /** In a log: the kind's figures again each time one of its requests lands. */
  private logLatency(e: SwarmEvent): void {
    if (e.type !== "agent-state" || (e.state !== "done" && e.state !== "failed")) return;
    const request = this.view?.requests?.requests.find((r) => r.agentId === e.agentId && r.landed === e.time);
    if (request === undefined) return;
    const line = this.latencyLines().find((l) => l.startsWith(`  latency per request: ${request.kind}:`));
    if (line !== undefined) this.print(line);
  }

  private print(text: string): void {
    if (this.live) this.clear();
    this.out.write(text + "\n");
  }

  private clear(): void {
    if (this.drawnLines > 0) this.out.write(`\x1b[${this.drawnLines}A\x1b[0J`);
    this.drawnLines = 0;
  }

  private redraw(): void {
    this.clear();
    const stats = this.view?.stats;
    const rows = (this.view?.agents ?? []).map((a) => agentRow(a, stats));
    if (stats && this.view) rows.push(`  ${budgetLine(stats)}${compactionsLine(this.view)}`);
    const triggers = this.view?.triggers;
    if (triggers) rows.push(`  triggers: ${countsText(triggers.counts)}; ${triggers.decisions} router decision(s)`);
    rows.push(...this.latencyLines());
    this.out.write(rows.join("\n") + "\n");
    this.drawnLines = rows.length;
  }
}
