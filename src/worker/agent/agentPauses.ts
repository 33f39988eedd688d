// The person's pause switch per agent. A paused agent finishes the step it is in (its tool call returns and its
// result is read into its context), then waits between steps: it takes no decode step, so the step barrier does
// not wait for it and the others go on, and it keeps its sequence (cells), claims (renewed while it waits) and
// worktree. It goes on when resumed, stopped, or when its wall clock runs out (then it stops as usual).

import type { SwarmBoard } from "../../core/swarmBoard";
import type { LoopInput } from "../../protocol/agentLoop";

/** Why a paused agent stopped waiting. */
export type PauseEnd = "resumed" | "aborted" | "time";

/** One agent's pause switch, as its runner reads it. */
export interface PauseSwitch {
  requested(): boolean;
  /** Waits while paused, at most `limitMs`; `renew` keeps the agent's claims alive meanwhile. */
  waitWhilePaused(limitMs: number | undefined, renew: () => void): Promise<PauseEnd>;
}

/** Claims are renewed this often while an agent waits paused, well inside any lease. */
const renewEveryMs = 60_000;

export class AgentPauses {
  private readonly paused = new Map<string, Array<() => void>>();

  isPaused(agentId: string): boolean {
    return this.paused.has(agentId);
  }

  /** Pauses an agent at its next step; false when it was already paused. */
  pause(agentId: string): boolean {
    if (this.paused.has(agentId)) return false;
    this.paused.set(agentId, []);
    return true;
  }

  /** Resumes an agent; false when it was not paused. */
  resume(agentId: string): boolean {
    const waiting = this.paused.get(agentId);
    if (waiting === undefined) return false;
    this.paused.delete(agentId);
    for (const wake of waiting) wake();
    return true;
  }

  /** The agent ended: nothing is left to resume. */
  forget(agentId: string): void {
    this.resume(agentId);
  }

  /** One agent's switch, as its runner reads it. */
  switchFor(agentId: string, signal: AbortSignal): PauseSwitch {
    return {
      requested: () => this.isPaused(agentId),
      waitWhilePaused: (limitMs: number | undefined, renew: () => void) =>
        this.waitWhilePaused(agentId, signal, limitMs, renew),
    };
  }

  /**
   * Waits while the agent is paused: until resumed, `signal` aborts, or `limitMs` passes (its wall clock). Calls
   * `renew` every minute, so the agent's claims outlive the pause.
   */
  async waitWhilePaused(
    agentId: string,
    signal: AbortSignal,
    limitMs: number | undefined,
    renew: () => void,
  ): Promise<PauseEnd> {
    const deadline = limitMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + limitMs;
    while (this.paused.has(agentId)) {
      if (signal.aborted) return "aborted";
      const left = deadline - Date.now();
      if (left <= 0) return "time";
      await this.wake(agentId, signal, Math.min(left, renewEveryMs));
      renew();
    }
    return signal.aborted ? "aborted" : "resumed";
  }

  /** Resolves at the resume, the abort or after `ms`, whichever comes first. */
  private wake(agentId: string, signal: AbortSignal, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener("abort", done, { once: true });
      this.paused.get(agentId)?.push(done);
    });
  }
}

/**
 * The runner's side: the agent's loop shows it paused while it waits; resumed, it goes back to where it was; a stop
 * (the user, the swarm) leaves it paused for the loop's next check to stop it; its wall clock running out stops it.
 */
export async function holdWhilePaused(
  pause: PauseSwitch,
  deps: {
    readonly id: string;
    readonly board: Pick<SwarmBoard, "renew">;
    readonly now: () => number;
    readonly timeLeftMs?: () => number;
  },
  apply: (inputs: readonly LoopInput[], reason?: string) => void,
): Promise<void> {
  apply(["pause"], "paused by the user");
  const end = await pause.waitWhilePaused(deps.timeLeftMs?.(), () => deps.board.renew(deps.id, deps.now()));
  if (end === "resumed") apply(["resume"]);
  if (end === "time") apply(["stop"], "the wall clock ran out while it was paused");
}
