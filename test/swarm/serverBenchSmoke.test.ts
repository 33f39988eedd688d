// The server bench (issue 26: one `swarmboard serve` against two workers) runs end to end on the tiny ChatML model
// with two researchers a swarm, and its figures hold together: one server loads the model once and its second swarm
// joins the first's pool and forks the trunk's shared start; two workers load it twice and fork nothing; both arms
// generate the same forced tokens. Counts only: the speed is the benchmark's business, not a test's.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ArmFigures } from "../../bench/serverBenchFigures";
import { sharedModelPath, testRuntime } from "../runtime/runtimeTestModels";

// The bundle from npm run build: it starts the servers from dist/worker, of the version dist/ was stamped with.
const root = path.resolve(__dirname, "../../..");
const benchScript = path.join(root, "dist", "bench", "serverVsWorkers.js");
const benchModel = sharedModelPath("tiny-random-qwen2-chatml.gguf");

function runBench(args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [benchScript, ...args], { encoding: "utf8", timeout: 420_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("server bench: one server vs two workers (tiny model, 2 researchers a swarm)", function () {
  let dir: string;

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), "swarmboard-server-bench-"));
    for (const file of [benchScript, path.join(root, "dist", "worker", "main.js")])
      assert.ok(existsSync(file), `${file} is missing: run npm run build first`);
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs both arms side by side and writes figures that hold together", async function () {
    this.timeout(450_000); // ~40 s on an idle 2-core machine; several minutes when other builds share it
    const json = path.join(dir, "figures.json");
    // 300 words of thinking keep the first swarm live while the second starts (~2 s on an idle machine). With 5, an
    // idle CI machine finished the first before the second joined: nothing to share, and the test failed.
    const { status, output } = runBench(["--agents", "2", "--findings", "1", "--think", "300", "--json", json]);
    assert.equal(status, 0, output);
    assert.match(output, /\| \| one server \| two workers \| one server \/ two workers \|/);
    const { arms } = JSON.parse(readFileSync(json, "utf8")) as { arms: Array<ArmFigures & { trunkDecoded: number }> };
    const [one, two] = arms;
    assert.ok(one && two, "two arms");
    assert.deepEqual(
      [one, two].map((a) => [a.arm, a.processes, a.modelLoads, a.first.outcome, a.second.outcome]),
      [
        ["one server", 1, 1, "completed", "completed"],
        ["two workers", 2, 2, "completed", "completed"],
      ],
    );
    // One server: the second swarm is a tenant of the first's pool and forks the trunk start they share.
    assert.ok(one.firstLiveAtSecondStart, `the first swarm ended before the second had started:\n${output}`);
    assert.equal(one.second.poolSwarms, 2);
    assert.ok(one.second.trunkForked > 0, `the second forked ${one.second.trunkForked} trunk tokens`);
    assert.equal(one.trunkDecoded, one.first.trunkTokens + one.second.trunkTokens - one.second.trunkForked);
    // Everything before the swarm's own part (charter, workspace, conventions as the system text, the tool docs, the
    // user turn's header) is the same in both trunks, so the second forks it: all its trunk but the swarm's part,
    // which opens the user turn as the model's tokens of its text (runtime/agentChatFormat.ts).
    const [firstTrunk, secondTrunk] = one.trunkTexts.map((text) => text.split("\n\n# Roster\n"));
    assert.equal(secondTrunk?.length, 2, "the trunk has one roster");
    assert.equal(secondTrunk![0], firstTrunk![0], "two swarms on one repository: one repository part");
    assert.notEqual(one.trunkTexts[0], one.trunkTexts[1], "different goals");
    const model = await testRuntime.loadModel({ modelPath: benchModel, vocabOnly: true, threads: 1 });
    const swarmPart = model.tokenize(`# Roster\n${secondTrunk![1]}\n`).length;
    const shared = one.second.trunkTokens - swarmPart;
    assert.ok(
      one.second.trunkForked >= shared && shared > one.second.trunkTokens / 2,
      `the second forked ${one.second.trunkForked} of its ${one.second.trunkTokens} trunk tokens; ${shared} are not its own`,
    );
    // Two workers: nothing to fork from, every trunk token decoded in each.
    assert.deepEqual([two.second.poolSwarms, two.first.trunkForked, two.second.trunkForked], [1, 0, 0]);
    assert.equal(two.trunkDecoded, two.first.trunkTokens + two.second.trunkTokens);
    // The same forced calls in both arms: the same tokens generated, counted once per pool.
    assert.ok(one.generatedTokens > 0 && one.generationDispatches > 0);
    assert.equal(one.generatedTokens, two.generatedTokens);
    assert.ok(
      one.peakRssBytes > 0 && one.peakRssBytes < two.peakRssBytes,
      `${one.peakRssBytes} vs ${two.peakRssBytes}`,
    );
  });

  it("refuses an unknown flag with the usage line", function () {
    const { status, output } = runBench(["--agentz", "4"]);
    assert.equal(status, 2);
    assert.match(output, /unknown flag or bad value: --agentz 4/);
    assert.match(output, /usage: /);
  });
});
