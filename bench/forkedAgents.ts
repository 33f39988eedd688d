// Shared cells and copy mode, measured through the runtime itself (src/runtime): decode the trunk once, fork N
// agents from it, let them generate T forced tokens together. The two modes differ only in `unified`.
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { SwarmModel } from "../src/runtime/loadModel";
import { createSwarmContext } from "../src/runtime/local/swarmContext";
import { type BenchConfig, type BenchFigures, RunClock } from "./benchFigures";

export interface ForkedAgentsInput {
  readonly model: SwarmModel;
  readonly config: BenchConfig;
  readonly threads: number;
  /** the trunk, BOS included when the model wants one */
  readonly trunk: readonly number[];
  /** per agent, the T tokens that replace the sampled ones */
  readonly forced: readonly (readonly number[])[];
  readonly batchSize: number;
}

/** Cells the pool needs: in copy mode every sequence (trunk, N agents, the synthesist seat) gets a whole stream. */
function kvCellsFor(config: BenchConfig, unified: boolean): number {
  const stream = config.trunkTokens + config.generatedTokens + 16;
  return unified ? stream + config.agents * (config.generatedTokens + 2) : stream * (config.agents + 2);
}

export async function runForkedAgents(input: ForkedAgentsInput): Promise<BenchFigures> {
  const { model, config, forced } = input;
  const unified = config.mode === "shared-cells";
  const swarm = await createSwarmContext(model, {
    maxAgents: config.agents,
    kvCells: kvCellsFor(config, unified),
    threads: input.threads,
    unified,
    batchSize: input.batchSize,
  });
  try {
    if (swarm.mode !== config.mode) {
      throw new Error(
        `bench: asked the runtime for ${config.mode} and it runs ${swarm.mode}; the row would be mislabelled`,
      );
    }
    const clock = new RunClock(config.agents, () => swarm.stats().dispatches);
    // The trunk's BOS is already in `trunk`; appendToTrunk adds one only to text or tokens that lack it.
    const body = input.trunk[0] === model.model.tokens.bos ? input.trunk.slice(1) : input.trunk;
    await swarm.appendToTrunk(body as Token[]);
    clock.prefillDone();

    const forkStart = performance.now();
    const agents = [];
    for (let i = 0; i < config.agents; i++)
      agents.push(await swarm.fork(`agent-${i + 1}`, { expectedTail: config.generatedTokens + 2 }));
    const forkMsPerAgent = (performance.now() - forkStart) / config.agents;

    // Two calls per agent so the moment of each first token is visible; the runtime's step barrier keeps both in
    // lockstep (one dispatch per step), and the second call decodes the first token in its first step.
    const prefillTokens = await Promise.all(
      agents.map(async (agent, i) => {
        await agent.generate({ maxTokens: 1, forcedTokens: forced[i].slice(0, 1) as Token[] });
        clock.firstToken();
        return swarm.stats().dispatchedTokens;
      }),
    );
    await Promise.all(
      agents.map(async (agent, i) => {
        const rest = await agent.generate({
          maxTokens: config.generatedTokens - 1,
          forcedTokens: forced[i].slice(1) as Token[],
        });
        if (rest.tokens.length !== config.generatedTokens - 1) {
          throw new Error(`bench: ${agent.id} stopped after ${rest.tokens.length + 1} tokens (${rest.stopReason})`);
        }
        clock.agentDone();
      }),
    );
    const stats = swarm.stats();
    return {
      forkMsPerAgent,
      // Everything decoded before the last first token: the trunk once, plus each agent's first step.
      prefillTokens: Math.max(...prefillTokens),
      prefillMs: clock.prefillMs(),
      kvCellsEnd: stats.usedCells,
      kvBytesEnd: stats.usedBytes,
      ...clock.stepFigures(config.generatedTokens),
      note: `runtime mode ${stats.mode}, ${model.build}`,
    };
  } finally {
    await swarm.dispose();
  }
}
