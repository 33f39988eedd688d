// The cooperation loop as data: gather -> claim -> act -> verify -> merge, then again, plus paused,
// stalled, done and failed. A transition is a table lookup that returns the next snapshot and the event
// to show in the lanes; the caller does the work of each state (model, tools, git) and feeds inputs back.
import type { LoopEvent, LoopInput, LoopState } from "../protocol/agentLoop";

/** "previous" means: back to the state the agent was paused in. */
type Target = LoopState | "previous";

const activeStates = ["gather", "claim", "act", "verify", "merge"] as const;

/** Inputs every active state accepts. */
const fromAnyActive: Partial<Record<LoopInput, Target>> = {
  pause: "paused",
  stall: "stalled",
  fail: "failed",
  stop: "done",
};

export const loopTransitions: Readonly<Record<LoopState, Readonly<Partial<Record<LoopInput, Target>>>>> = {
  gather: { ...fromAnyActive, gathered: "claim", noWork: "done" },
  claim: { ...fromAnyActive, claimGranted: "act", claimRefused: "gather" },
  act: { ...fromAnyActive, acted: "verify" },
  verify: { ...fromAnyActive, verified: "merge", verifyFailed: "act" },
  merge: { ...fromAnyActive, merged: "gather", mergeConflict: "act" },
  paused: { resume: "previous", stop: "done", fail: "failed" },
  // A stalled agent has lost its claim (the watchdog released it), so it starts again from gather.
  stalled: { resume: "gather", stop: "done", fail: "failed" },
  done: {},
  failed: {},
};

export interface LoopSnapshot {
  readonly agent: string;
  readonly state: LoopState;
  /** The state to return to from `paused`. */
  readonly resumeTo?: LoopState;
  /** Transitions made so far. */
  readonly seq: number;
  /** Completed gather -> merge cycles. */
  readonly iteration: number;
  /** Why the agent ended, once it is done or failed. */
  readonly endReason?: string;
}

export type LoopStep =
  | { readonly ok: true; readonly loop: LoopSnapshot; readonly event: LoopEvent }
  | { readonly ok: false; readonly error: string };

export function initialLoop(agent: string): LoopSnapshot {
  return { agent, state: "gather", seq: 0, iteration: 0 };
}

export function isTerminal(state: LoopState): boolean {
  return state === "done" || state === "failed";
}

export function isActive(state: LoopState): boolean {
  return (activeStates as readonly LoopState[]).includes(state);
}

/** Inputs the state accepts, in table order. */
export function allowedInputs(state: LoopState): LoopInput[] {
  return Object.keys(loopTransitions[state]) as LoopInput[];
}

/** Applies one input; an input the state does not accept is an error (returned, not thrown). */
export function advanceLoop(loop: LoopSnapshot, input: LoopInput, time: number, reason?: string): LoopStep {
  const target = loopTransitions[loop.state][input];
  if (target === undefined) {
    const allowed = allowedInputs(loop.state);
    return {
      ok: false,
      error: `Agent ${loop.agent} is ${loop.state}: "${input}" does not apply (accepted: ${allowed.length > 0 ? allowed.join(", ") : "none, it has ended"}).`,
    };
  }
  const to: LoopState = target === "previous" ? (loop.resumeTo ?? "gather") : target;
  const iteration = loop.state === "merge" && input === "merged" ? loop.iteration + 1 : loop.iteration;
  const next: LoopSnapshot = {
    agent: loop.agent,
    state: to,
    seq: loop.seq + 1,
    iteration,
    ...(to === "paused" ? { resumeTo: loop.state } : {}),
    ...(isTerminal(to) ? { endReason: reason ?? input } : {}),
  };
  const event: LoopEvent = {
    agent: loop.agent,
    from: loop.state,
    to,
    input,
    seq: next.seq,
    time,
    iteration,
    ...(reason === undefined ? {} : { reason }),
  };
  return { ok: true, loop: next, event };
}

/** A loop with listeners: what the worker holds per agent. Every transition is emitted to every listener. */
export class AgentLoop {
  private snapshot: LoopSnapshot;
  private readonly listeners = new Set<(event: LoopEvent) => void>();

  constructor(agent: string) {
    this.snapshot = initialLoop(agent);
  }

  get state(): LoopState {
    return this.snapshot.state;
  }

  get current(): LoopSnapshot {
    return this.snapshot;
  }

  onEvent(listener: (event: LoopEvent) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Applies an input; throws on an input the current state does not accept (a bug in the caller). */
  send(input: LoopInput, time: number, reason?: string): LoopEvent {
    const step = advanceLoop(this.snapshot, input, time, reason);
    if (!step.ok) throw new Error(step.error);
    this.snapshot = step.loop;
    for (const listener of this.listeners) listener(step.event);
    return step.event;
  }
}
