// What watches a call while it is generated: its deadline (the agent stopped, or the wall clock ran out: a call's
// room is the agent's whole share, so it is not left to finish on its own) and its progress (the arguments so far,
// for the agent's lane, a few times a second).

export interface CallWatchOptions {
  readonly signal?: AbortSignal;
  readonly callDeadline?: () => string | undefined;
  readonly deadlinePollMs?: number;
  readonly onCallProgress?: (tool: string, argsSoFar: string, tokens: number) => void;
  readonly callProgressMs?: number;
}

/** A signal that ends a call when the agent is stopped or `callDeadline` gives a reason. */
export function callDeadlineWatch(options: CallWatchOptions): {
  signal: AbortSignal;
  dispose: () => void;
  reason: () => string | undefined;
} {
  const controller = new AbortController();
  let reason: string | undefined;
  const timer = setInterval(() => {
    reason = options.callDeadline?.();
    if (reason !== undefined) controller.abort();
  }, options.deadlinePollMs ?? 200);
  timer.unref();
  const signals = [controller.signal, ...(options.signal ? [options.signal] : [])];
  return { signal: AbortSignal.any(signals), dispose: () => clearInterval(timer), reason: () => reason };
}

/** Generation options that report the arguments as they are written, at most every `callProgressMs`. */
export function callProgressReporter(
  options: CallWatchOptions,
  tool: string,
  nameTokens: number,
): { onText?: (text: string, tokens: number) => void } {
  const report = options.onCallProgress;
  if (report === undefined) return {};
  const every = options.callProgressMs ?? 300;
  let last = 0;
  return {
    onText: (text, tokens) => {
      const now = Date.now();
      if (now - last < every) return;
      last = now;
      report(tool, text, nameTokens + tokens);
    },
  };
}
