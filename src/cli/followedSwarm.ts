// A server run's swarm as this terminal follows it: its events on the connection, held until the start or resume
// answers with its id (the first batch may beat the answer), folded into the view the summary is printed from.
import { emptySwarm, reduceSwarm, type SwarmViewState } from "../core/swarmView";
import type { SwarmEvent } from "../protocol/swarmEvents";

/** The swarm's events on this connection, held until its id is known (the first batch may beat the answer). */
export class FollowedSwarm {
  readonly events: SwarmEvent[] = [];
  view: SwarmViewState | undefined;
  private readonly early: SwarmEvent[] = [];
  private swarmId: string | undefined;
  private ended!: (end: SwarmEvent & { type: "swarm-ended" }) => void;
  readonly end = new Promise<SwarmEvent & { type: "swarm-ended" }>((resolve) => (this.ended = resolve));

  constructor(private readonly take: (events: readonly SwarmEvent[]) => void) {}

  receive(swarmId: string, batch: readonly SwarmEvent[]): void {
    if (this.swarmId === undefined) this.early.push(...batch);
    else if (swarmId === this.swarmId) this.apply(batch);
  }

  started(swarmId: string): void {
    this.swarmId = swarmId;
    this.view = emptySwarm(swarmId, Date.now());
    this.apply(this.early.splice(0).filter((e) => e.swarmId === swarmId));
  }

  private apply(batch: readonly SwarmEvent[]): void {
    if (batch.length === 0) return;
    this.events.push(...batch);
    for (const e of batch) this.view = reduceSwarm(this.view!, e);
    this.take(batch);
    const end = batch.find((e) => e.type === "swarm-ended");
    if (end?.type === "swarm-ended") this.ended(end);
  }
}
