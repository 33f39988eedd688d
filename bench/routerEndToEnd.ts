// `npm run bench:router -- --end-to-end`: latency per request over a recorded stream of N triggers, end to end
// through the real CLI on one model: a standing swarm (`swarmboard watch`: the router assigns each trigger, a
// worker per task, the watch recipe's worker seats) against one agent doing every task in order (`swarmboard run`,
// the seed's ablation). Every task is the same forced calls in both arms (bench/endToEndPlan.ts); a request's latency
// runs from its arrival (the standing swarm: the inbox took it; the one agent: its tasks were all known when its
// swarm started) to its result (the worker ended; the one agent: its report on the task). p50/p95 per kind come from
// src/core/requestLatency.ts, the fold `swarmboard watch` and the panel show.
// Usage: node dist/bench/routerBatching.js --end-to-end [--model PATH] [--requests 12] [--think 200] [--threads 2]
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { latencyDuration, percentile, withRequestEvent } from "../src/core/requestLatency";
import type { RequestLatencyState } from "../src/core/requestLatency";
import { swarmEventSchema, type SwarmEvent } from "../src/protocol/swarmEvents";
import { makeBenchRepo, oneAgentRecipe, oneAgentScript, standingScript, streamTrigger } from "./endToEndPlan";
import { BenchUsageError } from "./benchOptions";

const cli = path.resolve(__dirname, "..", "cli", "main.js");
const defaultModel = path.resolve(__dirname, "../../../shared/models/tiny-random-qwen2-chatml.gguf");

interface EndToEndOptions {
  model: string;
  requests: number;
  think: number;
  threads: number;
}

function parse(argv: readonly string[]): EndToEndOptions {
  const options: EndToEndOptions = { model: defaultModel, requests: 12, think: 200, threads: 2 };
  const rest = argv.filter((a) => a !== "--end-to-end");
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i]!, rest[i + 1]];
    if (flag === "--model" && value !== undefined) options.model = value;
    else if (["--requests", "--think", "--threads"].includes(flag) && Number.isInteger(Number(value)))
      options[flag.slice(2) as "requests" | "think" | "threads"] = Number(value);
    else throw new BenchUsageError(`router bench --end-to-end: unknown flag or bad value: ${flag} ${value ?? ""}`);
  }
  if (options.requests < 2 || options.requests > 60)
    throw new BenchUsageError("router bench --end-to-end: --requests is 2 to 60 (30 a minute per source pass)");
  return options;
}

function readEvents(stateDir: string): SwarmEvent[] {
  const file = path.join(stateDir, "events.jsonl");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .slice(0, -1)
    .filter((l) => l.trim() !== "")
    .map((l) => swarmEventSchema.parse(JSON.parse(l)));
}

/** One arm's requests: kind, arrival and result times. */
interface Landed {
  readonly kind: string;
  readonly ms: number;
}

interface ArmResult {
  readonly arm: string;
  readonly landed: Landed[];
  readonly wallMs: number;
}

/** The standing swarm: runs `watch` on the stream until every request's worker ended, then stops it (Ctrl-C). */
async function standingArm(o: EndToEndOptions, root: string, common: string[]): Promise<ArmResult> {
  const ids = Array.from({ length: o.requests }, (_, i) => streamTrigger(i, 0).id!);
  const stateDir = path.join(root, "standing-state");
  writeFileSync(path.join(root, "standing-script.json"), JSON.stringify(standingScript(ids, o.think)));
  const args = [...common, "--workspace", makeBenchRepo(path.join(root, "standing")), "--state-dir", stateDir];
  args.push("--triggers", path.join(root, "stream.jsonl"), "--script", path.join(root, "standing-script.json"));
  const started = performance.now();
  const child = spawn(process.execPath, [cli, "watch", ...args], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr.on("data", (c: Buffer) => (out += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.on("exit", resolve));
  let state: RequestLatencyState | undefined;
  for (;;) {
    state = readEvents(stateDir).reduce<RequestLatencyState | undefined>(withRequestEvent, undefined);
    const done = state?.requests.filter((r) => r.landed !== undefined).length ?? 0;
    if (done >= o.requests) break;
    if (child.exitCode !== null) throw new Error(`watch exited (${child.exitCode}) with ${done} landed:\n${out}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const wallMs = performance.now() - started;
  child.kill("SIGINT");
  await exit;
  console.error(`router bench --end-to-end: standing swarm done; its watch printed:`);
  for (const line of out.split("\n").filter((l) => l.includes("latency per request"))) console.error(line);
  const landed = state!.requests.map((r) => ({ kind: r.kind, ms: r.landed! - r.arrived }));
  return { arm: "router + workers", landed, wallMs };
}

/** The ablation: one agent does every task in order; each task's result is its PATCH_SUMMARY on the board. */
function oneAgentArm(o: EndToEndOptions, root: string, common: string[]): ArmResult {
  const triggers = Array.from({ length: o.requests }, (_, i) => streamTrigger(i, 0));
  const ids = triggers.map((t) => t.id!);
  const stateDir = path.join(root, "one-state");
  writeFileSync(path.join(root, "one-script.json"), JSON.stringify(oneAgentScript(ids, o.think)));
  writeFileSync(path.join(root, "one-recipe.json"), JSON.stringify(oneAgentRecipe(o.requests)));
  const goal = `Do these ${o.requests} tasks in order: ${ids.join(", ")}.`;
  const args = [...common, "--workspace", makeBenchRepo(path.join(root, "one")), "--state-dir", stateDir];
  args.push("--goal", goal, "--recipe", path.join(root, "one-recipe.json"));
  args.push("--script", path.join(root, "one-script.json"));
  const started = performance.now();
  const run = spawnSync(process.execPath, [cli, "run", ...args], { encoding: "utf8" });
  const wallMs = performance.now() - started;
  if (run.status !== 0) throw new Error(`the one agent's run exited ${run.status}:\n${run.stdout}\n${run.stderr}`);
  const events = readEvents(stateDir);
  const start = events.find((e) => e.type === "swarm-started")!.time;
  const landed = triggers.map((t) => {
    const entry = events.find(
      (e) => e.type === "board-entry" && e.entry.kind === "PATCH_SUMMARY" && e.entry.text === `fixed ${t.id}`,
    );
    if (entry === undefined) throw new Error(`the one agent posted no result for ${t.id}`);
    return { kind: t.source, ms: entry.time - start };
  });
  return { arm: "one agent", landed, wallMs };
}

function row(arm: string, kind: string, values: number[], wallMs: number): string {
  const [p50, p95] = [percentile(values, 50)!, percentile(values, 95)!];
  return `| ${arm} | ${kind} | ${values.length} | ${latencyDuration(p50)} | ${latencyDuration(p95)} | ${latencyDuration(wallMs)} |`;
}

export async function endToEndMain(argv: readonly string[]): Promise<void> {
  const o = parse(argv);
  if (!existsSync(cli)) throw new BenchUsageError(`${cli} is missing: run npm run build first`);
  const root = mkdtempSync(path.join(os.tmpdir(), "swarmboard-bench-e2e-"));
  try {
    const stream = Array.from({ length: o.requests }, (_, i) => streamTrigger(i, Date.now()));
    writeFileSync(path.join(root, "stream.jsonl"), stream.map((t) => JSON.stringify(t)).join("\n") + "\n");
    // Each arm in its own process, its model load in its whole-arm time (the CLI's default is the shared server).
    const common = [
      ...["--model", o.model, "--threads", String(o.threads)],
      ...["--kv-cells", "16384", "--plain", "--no-server"],
    ];
    const arms = [await standingArm(o, root, common), oneAgentArm(o, root, common)];
    console.log(`model ${path.basename(o.model)}, ${o.threads} threads, load ${os.loadavg()[0]?.toFixed(2)}`);
    console.log(
      `${o.requests} triggers in one recorded stream, each task forced: ${o.think} words of thinking, 5 calls\n`,
    );
    console.log("| arm | kind | requests | p50 | p95 | whole arm |");
    console.log("|---|---|---:|---:|---:|---:|");
    for (const a of arms) {
      for (const kind of new Set(a.landed.map((l) => l.kind))) {
        const values = a.landed.filter((l) => l.kind === kind).map((l) => l.ms);
        console.log(row(a.arm, kind, values, a.wallMs));
      }
      console.log(
        row(
          a.arm,
          "all",
          a.landed.map((l) => l.ms),
          a.wallMs,
        ),
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
