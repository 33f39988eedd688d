// The runtime benchmark runs end to end on stories260K (--quick) and its figures hold together. Counts only:
// speed is the benchmark's business, not a test's.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BenchRow } from "../../bench/benchFigures";
import { sharedModelPath } from "./runtimeTestModels";

const benchScript = path.resolve(__dirname, "../../bench/runtimeBench.js");

function runBench(args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [benchScript, ...args], { encoding: "utf8", timeout: 240_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("runtime benchmark --quick (stories260K)", function () {
  let dir: string;

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), "swarmboard-bench-"));
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("measures the five modes side by side (the remote ones on a real llama-server) and writes the figures", function () {
    const json = path.join(dir, "figures.json");
    const { status, output } = runBench([
      "--quick",
      "--threads",
      "1",
      "--model",
      sharedModelPath("stories260K.gguf"),
      "--json",
      json,
    ]);
    assert.equal(status, 0, output);
    assert.match(output, /\| N \| mode \| fork ms\/agent \|/);
    const { rows } = JSON.parse(readFileSync(json, "utf8")) as { rows: BenchRow[] };
    assert.deepEqual(
      rows.map((row) => `${row.config.agents}:${row.config.mode}`),
      [
        ...["1:shared-cells", "1:copy-mode", "1:usual-bill", "1:remote", "1:remote-split"],
        ...["4:shared-cells", "4:copy-mode", "4:usual-bill", "4:remote", "4:remote-split"],
      ],
    );
    const at4 = (mode: string) => {
      const figures = rows.find((row) => row.config.agents === 4 && row.config.mode === mode)?.figures;
      assert.ok(figures, `figures for N = 4 ${mode}`);
      return figures;
    };
    const shared = at4("shared-cells");
    const copy = at4("copy-mode");
    const usual = at4("usual-bill");
    const trunk = rows[0].config.trunkTokens;
    const tail = rows[0].config.generatedTokens;
    // The trunk is decoded once (its last token once per agent, in the first step); the usual bill decodes it 4 times.
    assert.equal(shared.prefillTokens, trunk - 1 + 4);
    assert.equal(usual.prefillTokens, 4 * trunk);
    // Shared cells: the trunk once plus each agent's tail; copy mode: the trunk plus four copies of it.
    assert.equal(shared.kvCellsEnd, trunk - 1 + 4 * tail);
    assert.equal(copy.kvCellsEnd, trunk - 1 + 4 * (trunk - 1 + tail));
    assert.equal(shared.dispatchesPerStep, 1);
    assert.equal(copy.dispatchesPerStep, 1);
    // The remote arm's prefill is what llama-server says it computed: the trunk at least once, at most once per slot.
    const remote = at4("remote");
    assert.ok(remote.prefillTokens >= trunk && remote.prefillTokens <= 4 * trunk + 4, `${remote.prefillTokens}`);
    assert.match(remote.note ?? "", /llama-server -np 4 --kv-unified: \d+ prompt tokens computed/);
    // The split arm is the same server with one KV stream per slot: the same bounds, its own flag in the note.
    const split = at4("remote-split");
    assert.ok(split.prefillTokens >= trunk && split.prefillTokens <= 4 * trunk + 4, `${split.prefillTokens}`);
    assert.match(split.note ?? "", /llama-server -np 4 --no-kv-unified: \d+ prompt tokens computed/);
  });

  it("refuses an unknown flag with the usage line", function () {
    const { status, output } = runBench(["--quick", "--agentz", "4"]);
    assert.equal(status, 2);
    assert.match(output, /unknown flag --agentz/);
    assert.match(output, /usage: /);
  });
});
