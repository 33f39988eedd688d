// A stop switch per running agent, so the user can stop one agent of a swarm by its id while the rest go on.
export class AgentStops {
  private readonly controllers = new Map<string, AbortController>();

  /** A signal that aborts when the whole swarm stops or when this agent is stopped. */
  signalFor(agentId: string, swarm: AbortSignal): AbortSignal {
    const controller = new AbortController();
    this.controllers.set(agentId, controller);
    return AbortSignal.any([swarm, controller.signal]);
  }

  /** Stops one agent at its next step; false when it never ran. */
  stop(agentId: string): boolean {
    const controller = this.controllers.get(agentId);
    controller?.abort();
    return controller !== undefined;
  }
}
