// Refuses, before anything is written or any swarm context created, a goal or an agent count that cannot fit the
// KV budget: the numbers come from the loaded model's own tokens and the budget, and the message names the flags.
import { cellsPerAgentAtLeast, llamaMaxSequences, measureSwarmFit, type SwarmFitInput } from "../worker/swarm/swarmFit";
import { InputError } from "./inputChecks";

const n = (value: number) => value.toLocaleString("en-US");

/**
 * Errors that mean the command line asked for what this machine or model cannot do (exit 2, not 1) say so
 * themselves (`badInput`), so a new knob's refusal needs no entry here.
 */
const isBadInput = (error: unknown) => (error as { badInput?: unknown }).badInput === true;

/** The pool the swarm will get and where it lives, for the line the CLI prints before it starts. */
export type SwarmFitReport = Awaited<ReturnType<typeof measureSwarmFit>>;

export async function checkSwarmFits(input: SwarmFitInput): Promise<SwarmFitReport> {
  const fit = await measureSwarmFit(input).catch((error: unknown) => {
    if (isBadInput(error)) throw new InputError((error as Error).message);
    throw error;
  });
  const budget = `the KV budget of ${fit.pool.origin} (${fit.mode})`;
  if (fit.agentsThatFit === 0)
    throw new InputError(
      `The swarm does not fit: its shared context (charter, tools, roster and the goal of ${n(input.goal.length)} ` +
        `characters) is ${n(fit.trunkTokens)} tokens of this model, and ${budget} must also leave ` +
        `${n(cellsPerAgentAtLeast)} cells for each agent. Shorten --goal (put the details in a file of the workspace ` +
        `and name it in the goal), or give --kv-cells ${n(fit.trunkTokens + cellsPerAgentAtLeast)} or more` +
        (input.memoryBudget === undefined ? "." : " and a --memory-budget that holds them."),
    );
  if (fit.agentsThatFit < fit.agents)
    throw new InputError(
      `${input.agents === undefined ? `The recipe's ${n(fit.agents)} agents do` : `--agents ${n(fit.agents)} does`} ` +
        `not fit: at most ${n(fit.agentsThatFit)} agents fit at once in ${budget}, with a shared context of ` +
        `${n(fit.trunkTokens)} tokens and at least ${n(cellsPerAgentAtLeast)} cells per agent (one llama.cpp context ` +
        `holds at most ${llamaMaxSequences} sequences). Give --agents ${n(fit.agentsThatFit)} or fewer, or raise --kv-cells.`,
    );
  return fit;
}
