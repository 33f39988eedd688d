// Runs inside an unpacked VSIX: packagedRuntime.test.ts bundles this file (with the project's runtime code, and
// node-llama-cpp left external) into <vsix>/extension/dist/, so `node-llama-cpp` resolves to the copy the package
// ships, with the patched build it carries. It loads stories260K, forks two agents from one trunk on the shared-
// cells runtime, generates greedily, and prints one JSON line of what happened; the test judges it.
// Usage: node runtimeProbe.js <model.gguf> [gpu]   (gpu: vulkan, cuda, metal; the CPU when left out)
import type { KvPlacement } from "../../src/protocol/runtime";
import type { GpuChoice } from "../../src/runtime/gpuBackend";
import { createSwarmContext } from "../../src/runtime/local/swarmContext";
import { testRuntime } from "./runtimeTestModels";

export interface ProbeReport {
  build: string;
  cpuVariant: string;
  notice: string | null;
  mode: string;
  trunkOwners: number;
  texts: string[];
  /** Where the layers and the KV cells live (a GPU probe is judged by it). */
  placement: KvPlacement;
}

async function probe(modelPath: string, gpu: GpuChoice = false): Promise<ProbeReport> {
  const model = await testRuntime.loadModel({ modelPath, threads: 1, gpu });
  const swarm = await createSwarmContext(model, { maxAgents: 2, kvCells: 512, threads: 1 });
  try {
    await swarm.appendToTrunk("Once upon a time");
    const agents = [await swarm.fork("agent-1"), await swarm.fork("agent-2")];
    const trunkOwners = swarm.stats().trunkOwners;
    const results = await Promise.all(agents.map((agent) => agent.generate({ maxTokens: 8 })));
    return {
      build: model.build,
      cpuVariant: model.cpuVariant,
      notice: model.notice ?? null,
      mode: swarm.mode,
      trunkOwners,
      texts: results.map((result) => result.text),
      placement: await model.placement(),
    };
  } finally {
    await swarm.dispose();
    await model.dispose();
  }
}

const modelPath = process.argv[2];
if (require.main === module) {
  if (modelPath === undefined) {
    process.stderr.write("usage: node runtimeProbe.js <model.gguf>\n");
    process.exit(2);
  }
  probe(modelPath, (process.argv[3] as GpuChoice | undefined) ?? false).then(
    (report) => process.stdout.write(`PROBE ${JSON.stringify(report)}\n`),
    (error: unknown) => {
      process.stderr.write(
        `probe failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
