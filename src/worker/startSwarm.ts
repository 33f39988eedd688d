// The one way a swarm is launched, by the worker's start RPC and by `swarmboard run` alike: the session, its
// approver and its event stream, throttled once here so both surfaces get the same batches.
import { SwarmEventThrottle } from "../core/eventThrottle";
import type { SwarmEvent } from "../protocol/swarmEvents";
import type { CommandApprover } from "../workspace/approvals";
import { DeclaredStages } from "./swarm/declaredSchedule";
import { SwarmSession, type SwarmRunOptions, type SwarmSummary } from "./swarm/swarmSession";
import { StandingSwarm, type StandingOptions } from "./standing/standingSwarm";

/** A launch's options: the run's, and `standing` for a standing swarm (`swarmboard watch`, Start Watching). */
export type SwarmLaunchOptions = Omit<SwarmRunOptions, "approver"> & {
  /** A standing swarm: it takes triggers until stopped instead of running its stages once. */
  readonly standing?: StandingOptions;
};

export interface SwarmLaunch<Approver extends CommandApprover> {
  readonly options: SwarmLaunchOptions;
  /** The approver, given the swarm's event stream (an approval request travels as an event). */
  readonly approver: (emit: (event: SwarmEvent) => void) => Approver;
  /** Receives the events in batches, in order; the last batch comes before `summary` settles. */
  readonly deliver: (events: SwarmEvent[]) => void;
  /** Most time an event waits for its batch. */
  readonly batchMs: number;
}

export interface StartedSwarm<Approver extends CommandApprover> {
  readonly session: SwarmSession;
  readonly approver: Approver;
  readonly summary: Promise<SwarmSummary>;
}

export function startSwarm<Approver extends CommandApprover>(launch: SwarmLaunch<Approver>): StartedSwarm<Approver> {
  const throttle = new SwarmEventThrottle(launch.deliver, launch.batchMs, {
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
  });
  const emit = (event: SwarmEvent) => throttle.push(event);
  const approver = launch.approver(emit);
  // The launch picks how the seats run: the recipe's declared stages, or a standing swarm that takes triggers.
  const { standing, ...options } = launch.options;
  const schedule = standing === undefined ? new DeclaredStages() : new StandingSwarm(standing);
  const session = new SwarmSession({ ...options, approver }, emit, schedule);
  const summary = session.run().finally(() => throttle.flush());
  return { session, approver, summary };
}
