// The baseline: the usual bill for N agents on one context. N sequences each decode the whole trunk
// themselves (node-llama-cpp's default split cache, as a server with N slots and no prompt sharing would),
// then generate. node-llama-cpp batches their evaluations together, so this is the best case of the usual way.
// Its phases mirror the forked modes' exactly; only the prefill differs (N x P tokens instead of P + N - 1).
import type { LlamaModel } from "node-llama-cpp" with { "resolution-mode": "import" };
import { sequencePositions } from "../src/runtime/local/sequenceInternals";
import { type BenchConfig, type BenchFigures, RunClock } from "./benchFigures";

export interface UsualBillInput {
  readonly model: LlamaModel;
  readonly config: BenchConfig;
  readonly threads: number;
  readonly trunk: readonly number[];
  /** per agent, the tokens fed after each generated token */
  readonly forced: readonly (readonly number[])[];
  /** bytes one KV cell costs, as the runtime computes it for this model */
  readonly bytesPerCell: number;
  readonly batchSize: number;
  /** As the swarm's context chooses it (flashAttentionFor); undefined leaves it to llama.cpp. */
  readonly flashAttention: boolean | undefined;
}

type Token = Parameters<LlamaModel["detokenize"]>[0][number];

export async function runUsualBill(input: UsualBillInput): Promise<BenchFigures> {
  const { model, config, threads, trunk, forced } = input;
  const context = await model.createContext({
    sequences: config.agents,
    contextSize: trunk.length + config.generatedTokens + 16,
    batchSize: input.batchSize,
    threads,
    ...(input.flashAttention === undefined ? {} : { flashAttention: input.flashAttention }),
  });
  try {
    const dispatches = (): number => context.decodeDispatchStats.dispatches;
    const clock = new RunClock(config.agents, dispatches);
    const sequences = Array.from({ length: config.agents }, () => context.getSequence());
    // Phase 1: every sequence decodes the whole trunk but its last token (node-llama-cpp batches them together).
    await Promise.all(
      sequences.map((sequence) => sequence.evaluateWithoutGeneratingNewTokens(trunk.slice(0, -1) as Token[])),
    );
    clock.prefillDone();
    // Phase 2: as in the forked modes, the first step decodes each sequence's last trunk token and yields its
    // first token; then T - 1 steps. No step barrier here: plain node-llama-cpp batching, as a user would get.
    await Promise.all(
      sequences.map(async (sequence, agent) => {
        const generator = sequence.evaluate(trunk.slice(-1) as Token[], { temperature: 0 });
        await generator.next();
        clock.firstToken();
        for (let i = 1; i < config.generatedTokens; i++) await generator.next(forced[agent][i - 1] as Token);
        clock.agentDone();
        await generator.return();
      }),
    );
    const kvCellsEnd = sequences.reduce((sum, sequence) => {
      const { min, max } = sequencePositions(context, sequence);
      return sum + (max >= min && min >= 0 ? max - min + 1 : 0);
    }, 0);
    return {
      forkMsPerAgent: null,
      // Each sequence decodes the whole trunk: P - 1 tokens in phase 1 and the last one in the first step.
      prefillTokens: config.agents * trunk.length,
      prefillMs: clock.prefillMs(),
      kvCellsEnd,
      kvBytesEnd: kvCellsEnd * input.bytesPerCell,
      ...clock.stepFigures(config.generatedTokens),
    };
  } finally {
    await context.dispose();
  }
}
