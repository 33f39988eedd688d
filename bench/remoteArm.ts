// The remote arm: the same N agents on the same model, computed by llama-server on loopback and driven through
// Swarmboard's remote engine (src/runtime/remote), as a team with a serving engine would run it. The server gets
// N slots sharing one KV pool (-np N --kv-unified; the `remote-split` mode gives each slot its own stream instead)
// and prompt caching; the trunk is sent once before the agents.
// `prefillTokens` is what the engine itself says it computed (timings.prompt_n summed over requests), the cells
// are those it filled (computed prompt tokens plus generated ones). The engine runs in another process, so this
// process's CPU time says nothing about it and those columns stay empty; no dispatch count is visible either.
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import { openEngine } from "../src/runtime/engines";
import { RuntimeOwner } from "../src/runtime/runtimeOwner";
import type { BenchConfig, BenchFigures } from "./benchFigures";
import { RunClock } from "./benchFigures";
import { llamaServerBinary, LlamaServerProcess } from "./llamaServerProcess";

/** The bench's own runtime owner: its Llama, models and kept context. */
const benchRuntime = new RuntimeOwner();

export interface RemoteArmInput {
  readonly modelPath: string;
  readonly config: BenchConfig;
  readonly threads: number;
  readonly trunk: readonly number[];
  readonly bytesPerCell: number;
  /** One KV pool for all slots (--kv-unified) or one stream per slot. */
  readonly unified: boolean;
}

/** Why the remote arm cannot run here (no llama-server built), or undefined when it can. */
export function remoteArmMissing(): string | undefined {
  try {
    llamaServerBinary();
    return undefined;
  } catch (error) {
    return (error as Error).message.split(":")[0];
  }
}

export async function runRemoteArm(input: RemoteArmInput): Promise<BenchFigures> {
  const { config, trunk } = input;
  const perSlot = trunk.length + config.generatedTokens + 16;
  const server = await LlamaServerProcess.start({
    modelPath: input.modelPath,
    slots: config.agents,
    contextCells: perSlot * config.agents,
    threads: input.threads,
    unified: input.unified,
  });
  try {
    const settings = {
      kind: "remote" as const,
      url: server.url,
      model: "",
      dialect: "llama-server" as const,
      timeoutMs: 600_000,
      busyRetries: 4,
    };
    const engine = await openEngine(settings, { modelPath: input.modelPath, threads: 1 }, benchRuntime);
    const context = await engine.createContext({ maxAgents: config.agents, kvCells: 1 });
    // The health checks above made requests of their own: the engine's counts start here.
    const before = context.stats().engine!;
    const clock = new RunClock(config.agents, () => Number.NaN);
    const body = trunk[0] === engine.model.model.tokens.bos ? trunk.slice(1) : trunk;
    await context.appendToTrunk(body as Token[]);
    clock.prefillDone();
    const forkStart = performance.now();
    const agents = [];
    for (let i = 0; i < config.agents; i++) agents.push(await context.fork(`agent-${i + 1}`));
    const forkMsPerAgent = (performance.now() - forkStart) / config.agents;
    const promptAtFirst: number[] = [];
    await Promise.all(
      agents.map(async (agent) => {
        let first = true;
        const result = await agent.generate({
          maxTokens: config.generatedTokens,
          onText: () => {
            if (!first) return;
            first = false;
            clock.firstToken();
            promptAtFirst.push(context.stats().engine!.computedPromptTokens);
          },
        });
        if (result.tokens.length !== config.generatedTokens) {
          throw new Error(`bench: ${agent.id} stopped after ${result.tokens.length} tokens (${result.stopReason})`);
        }
        clock.agentDone();
      }),
    );
    const after = context.stats().engine!;
    await context.dispose();
    const computed = after.computedPromptTokens - before.computedPromptTokens;
    const cells = computed + config.agents * config.generatedTokens;
    const steps = clock.stepFigures(config.generatedTokens);
    return {
      forkMsPerAgent,
      prefillTokens: Math.max(...promptAtFirst) - before.computedPromptTokens,
      prefillMs: clock.prefillMs(),
      kvCellsEnd: cells,
      kvBytesEnd: cells * input.bytesPerCell,
      ...steps,
      cpuMsPerStep: Number.NaN,
      allFirstTokenCpuMs: Number.NaN,
      note:
        `llama-server -np ${config.agents} ${input.unified ? "--kv-unified" : "--no-kv-unified"}: ${computed} prompt tokens computed, ` +
        `${after.cachedPromptTokens - before.cachedPromptTokens} from its cache, ${after.requests - before.requests} requests`,
    };
  } finally {
    await server.stop();
  }
}
