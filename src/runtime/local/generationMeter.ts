// Step time and throughput of generation. Time counts only while at least one agent is generating, and a step
// is one decode dispatch made in that time, so idle gaps between turns do not dilute the figures.

export interface DispatchCounter {
  readonly dispatches: number;
}

export class GenerationMeter {
  private generating = 0;
  private startedAt = 0;
  private dispatchesAtStart = 0;
  private elapsedMs = 0;
  private steps = 0;
  private tokens = 0;

  constructor(private readonly counter: () => DispatchCounter) {}

  begin(): void {
    if (this.generating++ > 0) return;
    this.startedAt = performance.now();
    this.dispatchesAtStart = this.counter().dispatches;
  }

  end(): void {
    if (--this.generating > 0) return;
    this.elapsedMs += performance.now() - this.startedAt;
    this.steps += this.counter().dispatches - this.dispatchesAtStart;
  }

  /** Starts the figures over (a new swarm on a kept context); nothing may be generating. */
  reset(): void {
    if (this.generating > 0) throw new Error("cannot reset the generation meter while agents generate");
    this.elapsedMs = 0;
    this.steps = 0;
    this.tokens = 0;
  }

  countTokens(count: number): void {
    this.tokens += count;
  }

  read(): { generationSteps: number; meanStepMs: number; generatedTokens: number; tokensPerSecond: number } {
    let elapsedMs = this.elapsedMs;
    let steps = this.steps;
    if (this.generating > 0) {
      elapsedMs += performance.now() - this.startedAt;
      steps += this.counter().dispatches - this.dispatchesAtStart;
    }
    return {
      generationSteps: steps,
      meanStepMs: steps === 0 ? 0 : elapsedMs / steps,
      generatedTokens: this.tokens,
      tokensPerSecond: elapsedMs === 0 ? 0 : (this.tokens * 1000) / elapsedMs,
    };
  }
}
