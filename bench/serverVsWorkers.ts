// `npm run bench:server` (issue 26): one server against two workers, in one run. Two swarms of N researchers on the
// same repository; the second is launched once the first's researchers have all started (the first is live):
//   one server:  both on one `swarmboard serve` (the second joins the first's pool: one model, one dispatch per step);
//   two workers: each on a server of its own (another runtime folder: its own socket, model and pool), as two
//                windows with a private worker each.
// Each arm gets a fresh copy of the repository (no memories of the other arm's swarms in its trunks) and fresh
// servers, started before the clock runs (a window's worker is up before its person launches).
// Usage: node dist/bench/serverVsWorkers.js [--agents 8] [--findings 3] [--think 20] ... (serverBenchPlan.ts)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { runBenchMain } from "./benchMain";
import { realSizeChatModel } from "./benchModels";
import { BenchServer, until } from "./benchServer";
import { makeBenchRepo } from "./endToEndPlan";
import { allStarted, hasEnded, meterTotals, swarmFigures, type ArmFigures } from "./serverBenchFigures";
import {
  distVersion,
  parseServerBenchOptions,
  projectRoot,
  realSizeModel,
  startRequest,
  type ServerBenchOptions,
} from "./serverBenchPlan";
import { dispatchesPerStep, serverBenchTable, startRatio, trunkDecoded } from "./serverBenchReport";

interface BenchSetup {
  readonly o: ServerBenchOptions;
  readonly script: string;
  readonly version: string;
  readonly tmp: string;
}

async function startServers(s: BenchSetup, arm: ArmFigures["arm"]): Promise<BenchServer[]> {
  const labels = arm === "one server" ? ["server"] : ["worker-1", "worker-2"];
  // Short names: each server's socket lives under its folder, and a socket path past ~107 bytes makes the server
  // fall back to one shared /tmp folder (both "workers" would then be one), as under a long TMPDIR.
  const dir = (label: string) => path.join(s.tmp, `${arm === "one server" ? "one" : "two"}-${label}`);
  return Promise.all(labels.map((label) => BenchServer.start(label, s.script, s.version, dir(label))));
}

/** What a swarm's trunk said (trunk.txt in its state folder), for the JSON: which part of it two swarms share. */
const trunkText = (stateDir: string) => readFileSync(path.join(stateDir, "trunk.txt"), "utf8");

async function runArm(s: BenchSetup, arm: ArmFigures["arm"]): Promise<ArmFigures> {
  const { o } = s;
  const servers = await startServers(s, arm);
  const [one, other] = [servers[0]!, servers.at(-1)!];
  try {
    const base = path.join(s.tmp, arm.replace(" ", "-"));
    const workspace = makeBenchRepo(base);
    const states = [path.join(base, "state-first"), path.join(base, "state-second")] as const;
    const a = await one.launch(startRequest(o, workspace, states[0], 0));
    await until(() => allStarted(one.eventsOf(a.swarmId), o.agents), "the first swarm's agents");
    const b = await other.launch(startRequest(o, workspace, states[1], 1));
    await until(() => allStarted(other.eventsOf(b.swarmId), o.agents), "the second swarm's agents");
    const firstLiveAtSecondStart = !hasEnded(one.eventsOf(a.swarmId));
    await until(() => hasEnded(one.eventsOf(a.swarmId)) && hasEnded(other.eventsOf(b.swarmId)), "both ends");
    const first = swarmFigures(one.eventsOf(a.swarmId), o.agents, a.launchedAt);
    const second = swarmFigures(other.eventsOf(b.swarmId), o.agents, b.launchedAt);
    const statuses = await Promise.all(servers.map((server) => server.status()));
    const kernel = servers.map((server) => server.processFigures());
    const pools = second.poolSwarms >= 2 ? [[first, second]] : [[first], [second]];
    const meter = meterTotals(pools);
    return {
      arm,
      processes: servers.length,
      peakRssBytes: kernel.reduce((sum, k) => sum + k.peakRssBytes, 0),
      cpuMs: kernel.reduce((sum, k) => sum + k.cpuMs, 0),
      wholeRunMs: Math.max(first.endedAt, second.endedAt) - a.launchedAt,
      modelLoads: statuses.reduce((sum, st) => sum + st.modelLoads, 0),
      first,
      second,
      firstLiveAtSecondStart,
      generationDispatches: meter.dispatches,
      generatedTokens: meter.tokens,
      trunkTexts: [trunkText(states[0]), trunkText(states[1])],
    };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ");

async function main(): Promise<void> {
  const root = projectRoot();
  const parsed = parseServerBenchOptions(process.argv.slice(2), root);
  const o = parsed.model === realSizeModel ? { ...parsed, model: await realSizeChatModel() } : parsed;
  const script = path.join(root, "dist", "worker", "main.js");
  // Both arms read the model from the page cache, not the first from the disk.
  readFileSync(o.model);
  const tmp = mkdtempSync(path.join(os.tmpdir(), "sb-bench-"));
  const setup: BenchSetup = { o, script, version: distVersion(root), tmp };
  const loadBefore = load();
  try {
    const one = await runArm(setup, "one server");
    const two = await runArm(setup, "two workers");
    console.log(
      `model ${path.basename(o.model)}; 2 swarms x ${o.agents} researchers (+1 synthesist) on one repository, ` +
        `${o.goals} goals; each researcher ${o.findings} findings after ${o.think} words of thinking; ` +
        `${o.threads} threads, ${o.kvCells} KV cells a pool; ${os.cpus().length} cores, ` +
        `load (1/5/15 min) ${loadBefore} before, ${load()} after\n`,
    );
    console.log(serverBenchTable(one, two, o.agents));
    if (o.jsonPath !== undefined) {
      const derived = (a: ArmFigures) => ({
        trunkDecoded: trunkDecoded(a),
        dispatchesPerStep: dispatchesPerStep(a, o.agents),
        startRatio: startRatio(a),
      });
      const arms = [one, two].map((a) => ({ ...a, ...derived(a) }));
      writeFileSync(o.jsonPath, JSON.stringify({ options: o, loadBefore, loadAfter: load(), arms }, null, 2));
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

runBenchMain(main);
