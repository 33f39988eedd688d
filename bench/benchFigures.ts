// What one benchmark configuration measures, and the clock that takes the measurements. The same definitions
// hold for the three modes, so their rows can be divided by each other.

/** `remote`: llama-server on loopback, driven through the remote engine (bench/remoteArm.ts). */
/**
 * `remote`: llama-server with its slots sharing one KV pool (--kv-unified, its default), as a swarm sharing a pool
 * would run it; `remote-split`: one KV stream per slot (--no-kv-unified), where each row attends only its own
 * slot's cells: llama-server's fastest step, at the price of a fixed share of the context per slot.
 */
export type BenchMode = "shared-cells" | "copy-mode" | "usual-bill" | "remote" | "remote-split";

export interface BenchConfig {
  readonly model: string;
  readonly mode: BenchMode;
  /** N */
  readonly agents: number;
  /** P: trunk tokens, including the BOS token */
  readonly trunkTokens: number;
  /** T: tokens each agent generates (forced, so every mode generates the same) */
  readonly generatedTokens: number;
}

export interface BenchFigures {
  /** mean wall time of one fork; null for the usual bill, which does not fork */
  readonly forkMsPerAgent: number | null;
  /** tokens decoded before the first generated token: P once when forking, N x P for the usual bill */
  readonly prefillTokens: number;
  /** wall time of that prefill */
  readonly prefillMs: number;
  /** KV cells holding a token at the end, before anything is released */
  readonly kvCellsEnd: number;
  /** those cells in bytes (cells x bytes per cell, from the model's layers, KV heads and KV type) */
  readonly kvBytesEnd: number;
  /** llama_decode dispatches per generation step after the first token (1 = all agents in one batch) */
  readonly dispatchesPerStep: number;
  /** mean wall time of one generation step after the first token */
  readonly meanStepMs: number;
  /** N x (T - 1) tokens over the time of those steps */
  readonly aggregateTokensPerSecond: number;
  /** from the start (before the prefill) until every agent has produced its first token */
  readonly allFirstTokenMs: number;
  /**
   * The same two spans in CPU time of this process (all its threads). On a shared machine wall time also counts
   * other people's work; CPU time counts only ours (with threads > 1 it includes ggml's spin-waiting).
   */
  readonly cpuMsPerStep: number;
  readonly allFirstTokenCpuMs: number;
  /** the whole configuration, prefill to last token */
  readonly wallMs: number;
  /** what the runtime said about itself (its mode, a fallback notice) */
  readonly note?: string;
}

export interface BenchRow {
  readonly config: BenchConfig;
  /** undefined when the configuration was skipped; `skipped` then says why */
  readonly figures?: BenchFigures;
  readonly skipped?: string;
}

type StepFigureName =
  | "dispatchesPerStep"
  | "meanStepMs"
  | "aggregateTokensPerSecond"
  | "allFirstTokenMs"
  | "wallMs"
  | "cpuMsPerStep"
  | "allFirstTokenCpuMs";

/**
 * Milestones of one run, taken as they happen. It also snapshots the dispatch counter when the last agent gets
 * its first token, so that the steps after it can be told apart from the prefill and the first step.
 */
export class RunClock {
  private readonly start = performance.now();
  private readonly cpuStart = process.cpuUsage();
  private cpuAtAllFirst: NodeJS.CpuUsage | undefined;
  private prefillEnd: number | undefined;
  private readonly firstTokenAt: number[] = [];
  private readonly doneAt: number[] = [];
  private dispatchesAtAllFirst: number | undefined;

  constructor(
    private readonly agents: number,
    private readonly readDispatches: () => number,
  ) {}

  prefillDone(): void {
    this.prefillEnd = performance.now();
  }

  firstToken(): void {
    this.firstTokenAt.push(performance.now());
    if (this.firstTokenAt.length === this.agents) {
      this.dispatchesAtAllFirst = this.readDispatches();
      this.cpuAtAllFirst = process.cpuUsage(this.cpuStart);
    }
  }

  agentDone(): void {
    this.doneAt.push(performance.now());
  }

  prefillMs(): number {
    if (this.prefillEnd === undefined) throw new Error("bench: prefill end was never marked");
    return this.prefillEnd - this.start;
  }

  /** The step figures every mode derives the same way. */
  stepFigures(generatedTokens: number): Pick<BenchFigures, StepFigureName> {
    const { agents } = this;
    if (
      this.firstTokenAt.length !== agents ||
      this.dispatchesAtAllFirst === undefined ||
      this.cpuAtAllFirst === undefined
    ) {
      throw new Error(`bench: ${this.firstTokenAt.length} of ${agents} agents produced a first token`);
    }
    if (this.doneAt.length !== agents) throw new Error(`bench: ${this.doneAt.length} of ${agents} agents finished`);
    const allFirst = Math.max(...this.firstTokenAt) - this.start;
    const windowMs = Math.max(...this.doneAt) - this.start - allFirst;
    const steps = generatedTokens - 1;
    const cpuMs = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1000;
    const cpuTotal = cpuMs(process.cpuUsage(this.cpuStart));
    return {
      cpuMsPerStep: (cpuTotal - cpuMs(this.cpuAtAllFirst)) / steps,
      allFirstTokenCpuMs: cpuMs(this.cpuAtAllFirst),
      dispatchesPerStep: (this.readDispatches() - this.dispatchesAtAllFirst) / steps,
      meanStepMs: windowMs / steps,
      aggregateTokensPerSecond: (agents * steps) / (windowMs / 1000),
      allFirstTokenMs: allFirst,
      wallMs: performance.now() - this.start,
    };
  }
}
