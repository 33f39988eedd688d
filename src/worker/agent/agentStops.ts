// A stop switch per running agent, so the user can stop one agent of a swarm by its id while the rest go on.
// Stopping an agent stops its sub-agents too (and theirs): they work in its worktree, for its task, and its seat
// waits for them before it ends.
export class AgentStops {
  private readonly controllers = new Map<string, AbortController>();
  private readonly children = new Map<string, string[]>();

  /** A signal that aborts when the whole swarm stops, when this agent is stopped, or when its parent is. */
  signalFor(agentId: string, swarm: AbortSignal, parentId?: string): AbortSignal {
    const controller = new AbortController();
    this.controllers.set(agentId, controller);
    if (parentId !== undefined) {
      this.children.set(parentId, [...(this.children.get(parentId) ?? []), agentId]);
      if (this.controllers.get(parentId)?.signal.aborted) controller.abort();
    }
    return AbortSignal.any([swarm, controller.signal]);
  }

  /** Stops one agent and its sub-agents at their next step; false when it never ran. */
  stop(agentId: string): boolean {
    const controller = this.controllers.get(agentId);
    controller?.abort();
    for (const child of this.children.get(agentId) ?? []) this.stop(child);
    return controller !== undefined;
  }
}
