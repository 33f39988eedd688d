// What the CLI shows while a swarm runs. On a TTY: a live block with one line per agent (state, claim,
// tokens, private KV cells), the KV budget and tokens/s, redrawn in place. Otherwise: plain lines for the
// events a person reads in a log (states, tool results, findings), never the token stream.
import type { SwarmStats } from "../protocol/runtime";
import type { SwarmEvent } from "../protocol/swarmEvents";

interface AgentLine {
  state: string;
  claim: string;
  tokens: number;
  last: string;
}

function kib(bytes: number): string {
  return bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
}

export function budgetLine(stats: SwarmStats): string {
  return (
    `KV ${stats.mode}: ${stats.usedCells}/${stats.poolCells} cells (${kib(stats.usedBytes)}), trunk ${stats.trunkCells} cells x ${stats.trunkOwners} owners, ` +
    `free ${stats.freeCells}; ${stats.tokensPerSecond.toFixed(1)} tok/s, ${stats.rowsPerDispatch.toFixed(1)} rows/dispatch`
  );
}

export class TerminalView {
  private readonly agents = new Map<string, AgentLine>();
  private stats: SwarmStats | undefined;
  private drawnLines = 0;

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly live: boolean,
  ) {}

  onEvents(events: readonly SwarmEvent[]): void {
    for (const e of events) this.apply(e);
    if (this.live) this.redraw();
  }

  private apply(e: SwarmEvent): void {
    const line = (id: string) => {
      let a = this.agents.get(id);
      if (!a) this.agents.set(id, (a = { state: "starting", claim: "", tokens: 0, last: "" }));
      return a;
    };
    switch (e.type) {
      case "swarm-started":
        this.print(
          `swarm ${e.swarmId}: recipe ${e.recipe}, model ${e.model.path} (${e.mode}), trunk ${e.trunkTokens} tokens decoded once${e.rules?.length ? `; rules: ${e.rules.map((r) => r.path).join(", ")}` : ""}`,
        );
        break;
      case "agent-added":
        line(e.agent.id);
        this.print(
          `+ ${e.agent.id} (${e.agent.role}${e.agent.parent ? `, sub-agent of ${e.agent.parent}` : ""})${e.agent.branch ? ` on ${e.agent.branch}` : ""}`,
        );
        break;
      case "agent-state":
        line(e.agentId).state = e.state;
        if (!this.live) this.print(`  ${e.agentId}: ${e.state}${e.reason ? ` (${e.reason})` : ""}`);
        break;
      case "tool-result": {
        const a = line(e.agentId);
        a.last = e.summary;
        if (e.summary.startsWith("claimed ")) a.claim = e.summary.slice(8);
        if (!this.live) this.print(`  ${e.agentId}: ${e.ok ? "ok" : "error"} ${e.summary}`);
        break;
      }
      case "agent-text":
        line(e.agentId).tokens += e.tokens;
        break;
      case "board-entry":
        if (e.entry.kind !== "MESSAGE" && e.entry.kind !== "CLAIM" && e.entry.kind !== "RELEASE")
          this.print(`  [${e.entry.kind}] ${e.entry.author}: ${e.entry.text.slice(0, 160)}`);
        break;
      case "kv-stats":
        this.stats = e.stats;
        break;
      case "approval-request":
        this.print(`  ? ${e.agentId} asks to run: ${e.command} (${e.reason})`);
        break;
      case "swarm-ended":
        this.print(`swarm ${e.outcome}: ${e.reason}`);
        break;
      default:
        break;
    }
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
    const rows = [...this.agents].map(([id, a]) => {
      const cells = this.stats?.agents.find((x) => x.agentId === id)?.privateCells ?? 0;
      return `  ${id.padEnd(14)} ${a.state.padEnd(9)} ${(a.claim || "-").slice(0, 30).padEnd(30)} ${String(a.tokens).padStart(6)} tok ${String(cells).padStart(6)} cells  ${a.last.slice(0, 50)}`;
    });
    if (this.stats) rows.push(`  ${budgetLine(this.stats)}`);
    this.out.write(rows.join("\n") + "\n");
    this.drawnLines = rows.length;
  }
}
