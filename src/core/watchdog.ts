// The watchdog judges progress, not liveness. After each step of an agent it is told what happened and
// answers with an escalation: nudge, then release the claim, then stop with the reason.
// Triggers (counted since the last progress or the last trigger):
//   - no new finding, diff or test change in `noProgressSteps` steps;
//   - the same tool call with the same arguments `repeatLimit` times;
//   - the same error `repeatErrorLimit` times (2: "the same error again").
// Progress clears the counters and the escalation; a trigger clears the counters only, so each further
// escalation needs a whole new trigger.
import type { WatchdogVerdict } from "../protocol/agentLoop";
import { canonicalJson } from "./board";

export interface WatchdogOptions {
  /** K: steps without a finding, diff or test change before a trigger. */
  readonly noProgressSteps: number;
  /** R: identical tool calls (name and arguments) before a trigger. */
  readonly repeatLimit: number;
  /** Times the same error may be seen before a trigger (default 2). */
  readonly repeatErrorLimit?: number;
}

export interface StepReport {
  readonly toolCall?: { readonly name: string; readonly args: unknown };
  readonly progress?: { readonly finding?: boolean; readonly diff?: boolean; readonly testChange?: boolean };
  /** An error the step ended with (a tool error, a failing check). */
  readonly error?: string;
}

const escalation = ["nudge", "releaseClaim", "stop"] as const;

export class Watchdog {
  private idleSteps = 0;
  private readonly calls = new Map<string, number>();
  private readonly errors = new Map<string, number>();
  private level = 0;

  constructor(private readonly options: WatchdogOptions) {
    for (const [name, value] of [
      ["noProgressSteps", options.noProgressSteps],
      ["repeatLimit", options.repeatLimit],
      ["repeatErrorLimit", options.repeatErrorLimit ?? 2],
    ] as const) {
      if (!Number.isInteger(value) || value < 1)
        throw new Error(`Watchdog option ${name} must be a whole number of at least 1, got ${value}.`);
    }
  }

  /** Escalations so far since the last progress (0 to 3). */
  get escalationLevel(): number {
    return this.level;
  }

  observe(step: StepReport): WatchdogVerdict {
    const p = step.progress;
    if (p !== undefined && (p.finding === true || p.diff === true || p.testChange === true)) {
      this.clearCounters();
      this.level = 0;
      return { action: "none" };
    }
    const reason = this.trigger(step);
    if (reason === undefined) return { action: "none" };
    this.clearCounters();
    const action = escalation[Math.min(this.level, escalation.length - 1)];
    this.level = Math.min(this.level + 1, escalation.length);
    return { action, reason };
  }

  private trigger(step: StepReport): string | undefined {
    this.idleSteps++;
    if (step.toolCall !== undefined) {
      const key = `${step.toolCall.name} ${canonicalJson(step.toolCall.args ?? null)}`;
      const n = (this.calls.get(key) ?? 0) + 1;
      this.calls.set(key, n);
      if (n >= this.options.repeatLimit) return `called ${step.toolCall.name} with the same arguments ${n} times`;
    }
    if (step.error !== undefined) {
      const key = step.error.trim();
      const n = (this.errors.get(key) ?? 0) + 1;
      this.errors.set(key, n);
      if (n >= (this.options.repeatErrorLimit ?? 2))
        return `the same error again (${n} times): ${key.length > 200 ? key.slice(0, 197) + "..." : key}`;
    }
    if (this.idleSteps >= this.options.noProgressSteps)
      return `no new finding, diff or test change in ${this.idleSteps} steps`;
    return undefined;
  }

  private clearCounters(): void {
    this.idleSteps = 0;
    this.calls.clear();
    this.errors.clear();
  }
}

/** The nudge an agent reads in its context. */
export function nudgeText(reason: string): string {
  return `Watchdog: ${reason.replace(/[.\s]+$/, "")}. Change approach: post what you know, try a different tool or scope, or release your claim if you are stuck.`;
}
