// Wires the watchdog to the claims and the loop, so the escalation is applied the same way for every agent:
// progress renews the agent's leases; a nudge is handed back as text for the agent's context; a release
// frees its claims and moves its loop to `stalled`; a stop frees its claims and ends its loop as `failed`
// with the reason recorded.
import type { LoopEvent, WatchdogVerdict } from "../protocol/agentLoop";
import type { BoardEntry } from "../protocol/board";
import { isActive, type AgentLoop } from "./agentLoop";
import type { SwarmBoard } from "./swarmBoard";
import { nudgeText, Watchdog, type StepReport, type WatchdogOptions } from "./watchdog";

export interface GuardOutcome {
  readonly verdict: WatchdogVerdict;
  /** Text to put in the agent's context (nudges). */
  readonly nudge?: string;
  /** The loop transition the verdict caused, if any. */
  readonly event?: LoopEvent;
  /** RELEASE entries the verdict posted (its claims, freed). */
  readonly released?: readonly BoardEntry[];
}

export class ProgressGuard {
  private readonly watchdogs = new Map<string, Watchdog>();

  constructor(private readonly options: WatchdogOptions) {
    new Watchdog(options); // validates the options once, here, rather than at the first step
  }

  private watchdogFor(agent: string): Watchdog {
    let w = this.watchdogs.get(agent);
    if (w === undefined) {
      w = new Watchdog(this.options);
      this.watchdogs.set(agent, w);
    }
    return w;
  }

  /** Call after every step of an agent (one tool call, or one decode turn without a call). */
  async afterStep(swarm: SwarmBoard, loop: AgentLoop, report: StepReport, now: number): Promise<GuardOutcome> {
    const agent = loop.current.agent;
    const verdict = this.watchdogFor(agent).observe(report);
    const p = report.progress;
    if (p !== undefined && (p.finding === true || p.diff === true || p.testChange === true)) swarm.renew(agent, now);
    switch (verdict.action) {
      case "none":
        return { verdict };
      case "nudge":
        return { verdict, nudge: nudgeText(verdict.reason) };
      case "releaseClaim": {
        const released = await swarm.releaseAgent(agent, `stalled: ${verdict.reason}`, now);
        return isActive(loop.state)
          ? { verdict, released, event: loop.send("stall", now, verdict.reason) }
          : { verdict, released };
      }
      case "stop": {
        const released = await swarm.releaseAgent(agent, `stopped: ${verdict.reason}`, now);
        const canFail = loop.state !== "done" && loop.state !== "failed";
        return canFail
          ? { verdict, released, event: loop.send("fail", now, `watchdog: ${verdict.reason}`) }
          : { verdict, released };
      }
    }
  }

  /** Forget an agent that has ended. */
  forget(agent: string): void {
    this.watchdogs.delete(agent);
  }
}
