// One thing at a time on a sequence or an agent, local or remote: an append during a generation (or a second
// generation) is refused with what to wait for, not interleaved; a released one refuses everything.
import { SwarmRuntimeError } from "./runtimeErrors";

export interface ExclusiveHolder {
  readonly id: string;
  readonly released: boolean;
  busy: boolean;
}

/** Runs `work` with `holder` marked busy, refusing when it is released or already busy. */
export async function runExclusive<T>(holder: ExclusiveHolder, what: string, work: () => Promise<T>): Promise<T> {
  if (holder.released)
    throw new SwarmRuntimeError("agent-released", `${holder.id} was released; fork a new agent to ${what}.`);
  if (holder.busy) {
    throw new SwarmRuntimeError(
      "agent-busy",
      `${holder.id} is busy; wait for its current append or generation before you ${what}.`,
    );
  }
  holder.busy = true;
  try {
    return await work();
  } finally {
    holder.busy = false;
  }
}
