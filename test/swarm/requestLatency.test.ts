// Latency per request of a standing swarm, end to end (real CLI `swarmboard watch`, real runtime, the tiny ChatML
// model, forced tokens): a recorded stream of three triggers, each assigned by the router to a worker that does
// the task (claim, read, write, commit, report). Each request's arrival, dispatch, worker start and result are in
// the events in that order and agree with the trigger log; the watch prints p50/p95 per kind, the same figures
// core/requestLatency.ts computes from the events file.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { makeBenchRepo, standingScript, streamTrigger } from "../../bench/endToEndPlan";
import {
  kindLatencyText,
  latencyByKind,
  withRequestEvent,
  type RequestLatencyState,
} from "../../src/core/requestLatency";
import { swarmEventSchema } from "../../src/protocol/swarmEvents";
import { triggerLogLineSchema } from "../../src/protocol/triggers";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { repoRoot } from "./swarmFixtures";

const cli = path.join(repoRoot(), "dist", "cli", "main.js");
const requests = 3;

function jsonLines(file: string): unknown[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .slice(0, -1)
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as unknown);
}

const fold = (stateDir: string) =>
  jsonLines(path.join(stateDir, "events.jsonl"))
    .map((l) => swarmEventSchema.parse(l))
    .reduce<RequestLatencyState | undefined>(withRequestEvent, undefined);

describe("a standing swarm's latency per request (real CLI watch, tiny ChatML model)", function () {
  this.timeout(10 * 60_000);

  it("stamps each request's arrival, dispatch, start and result, and the watch prints p50/p95 per kind", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "swarmboard-latency-"));
    const stream = Array.from({ length: requests }, (_, i) => streamTrigger(i, Date.now()));
    writeFileSync(path.join(root, "stream.jsonl"), stream.map((t) => JSON.stringify(t)).join("\n") + "\n");
    writeFileSync(
      path.join(root, "script.json"),
      JSON.stringify(
        standingScript(
          stream.map((t) => t.id!),
          20,
        ),
      ),
    );
    const stateDir = path.join(root, "state");
    const args = [
      ...["watch", "--no-server", "--model", sharedModelPath("tiny-random-qwen2-chatml.gguf"), "--threads", "1"],
      ...["--kv-cells", "16384", "--plain", "--workspace", makeBenchRepo(root), "--state-dir", stateDir],
      ...["--triggers", path.join(root, "stream.jsonl"), "--script", path.join(root, "script.json")],
    ];
    const child = spawn(process.execPath, [cli, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    const exit = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const deadline = Date.now() + 8 * 60_000;
    while ((fold(stateDir)?.requests.filter((r) => r.landed !== undefined).length ?? 0) < requests) {
      assert.equal(child.exitCode, null, `watch exited early:\n${out}`);
      assert.ok(Date.now() < deadline, `gave up waiting for ${requests} results:\n${out}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    child.kill("SIGINT");
    assert.equal(await exit, 4, `the watch stopped on Ctrl-C:\n${out}`);

    const timings = fold(stateDir)!.requests;
    assert.deepEqual(
      timings.map((r) => r.id),
      stream.map((t) => t.id),
    );
    const log = jsonLines(path.join(stateDir, "triggers.jsonl")).map((l) => triggerLogLineSchema.parse(l));
    for (const r of timings) {
      assert.ok(
        r.arrived <= r.dispatched! && r.dispatched! <= r.started! && r.started! <= r.landed!,
        JSON.stringify(r),
      );
      const decided = log.find((l) => l.kind === "decision" && l.triggerId === r.id);
      const worker = log.find((l) => l.kind === "worker" && l.thread === r.id && l.state === "started");
      const ended = log.find((l) => l.kind === "worker" && l.thread === r.id && l.state === "ended");
      assert.ok(
        decided?.kind === "decision" && worker?.kind === "worker" && ended?.kind === "worker",
        `${r.id} in the trigger log`,
      );
      assert.equal(worker.agentId, r.agentId, `${r.id}: the worker the log names`);
      // The log is written before the event is sent: its times come first, by little.
      for (const [logged, seen] of [
        [decided.time, r.dispatched!],
        [worker.time, r.started!],
        [ended.time, r.landed!],
      ] as const)
        assert.ok(Math.abs(seen - logged) < 5_000, `${r.id}: event ${seen}, trigger log ${logged}`);
    }
    const expected = latencyByKind(timings).map((k) => `  latency per request: ${kindLatencyText(k)}`);
    assert.deepEqual(
      expected.map((l) => l.split(":")[1]),
      [" diagnostic", " test-failure"],
    );
    // At the end the watch prints every kind's figures, from its own fold of the same events.
    const printed = out.split("\n");
    const end = printed.findIndex((l) => l.startsWith("swarm stopped"));
    assert.deepEqual(printed.slice(end - expected.length, end), expected, out);
  });
});
