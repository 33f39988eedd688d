// What an agent has left of its budgets, as one compact line on every tool result: the time until it must stop
// (fan-in for workers, the end for the synthesist), its tokens and its steps. Agents cannot plan for a clock
// they never see; the brief says what to do when the line runs short.

export interface BudgetLeft {
  /** Milliseconds until the agent must stop; undefined when no clock applies. */
  readonly timeLeftMs?: number;
  /** What the clock runs to: "fan-in" for workers, "the end" for the synthesist. */
  readonly until: string;
  readonly tokensLeft: number;
  readonly stepsLeft: number;
}

/** 75 s -> "1m15s", 3_700_000 -> "1h1m", under a second -> "0s". */
export function shortDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${s % 60 ? `${s % 60}s` : ""}`;
  return `${Math.floor(m / 60)}h${m % 60 ? `${m % 60}m` : ""}`;
}

/** The line itself, e.g. "4m10s until fan-in, 2840 tokens, 33 steps". */
export function budgetLeftLine(left: BudgetLeft): string {
  const parts = [
    ...(left.timeLeftMs !== undefined ? [`${shortDuration(left.timeLeftMs)} until ${left.until}`] : []),
    `${Math.max(0, left.tokensLeft)} tokens`,
    `${Math.max(0, left.stepsLeft)} steps`,
  ];
  return parts.join(", ");
}

/** What the brief tells every agent about the line. */
export const budgetLeftAdvice =
  'Every tool result ends with "left": your time until you must stop, your tokens and your steps. When any of them ' +
  "runs short (a fifth or less), stop exploring: post what you found, commit and merge_progress what works, release " +
  "your claim, then finish.";
