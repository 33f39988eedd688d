// A swarm's cap on a shared pool and the swarms a new pool is sized for, from each way in: `swarmboard run
// --pool-share / --pool-swarms`, the swarm/start request (parsed by zod at the worker), and the host's settings.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../../../src/cli/args";
import { parseRun } from "../../../src/cli/runArgs";
import { serverStartParams } from "../../../src/cli/serverRunParams";
import { runtimeSettings } from "../../../src/host/launch/runtimeSettings";
import { settingsSchema } from "../../../src/protocol/settings";
import { startSwarmParams } from "../../../src/protocol/swarmRpc";
import { cleanRepo, removeDir, tempDir } from "../workspace/gitFixture";

describe("a swarm's share of a pool, from the CLI, the start request and the settings", () => {
  let repo: string;
  let model: string;
  before(() => {
    repo = cleanRepo();
    model = path.join(tempDir("sb-model-"), "m.gguf");
    writeFileSync(model, "GGUF");
  });
  after(() => removeDir(repo));

  it("takes --pool-share and --pool-swarms into the start request, which the worker's schema accepts", async () => {
    const opts = parseRun(["--goal", "g", "--model", model, "--pool-share", "1024", "--pool-swarms", "3"]);
    assert.equal(opts.poolShare, 1024);
    assert.equal(opts.poolSwarms, 3);
    const params = await serverStartParams(opts, repo);
    assert.equal(params.poolShareCells, 1024);
    assert.equal(params.poolSwarms, 3);
    const parsed = startSwarmParams.parse(params);
    assert.equal(parsed.poolShareCells, 1024);
    const plain = await serverStartParams(parseRun(["--goal", "g", "--model", model]), repo);
    assert.equal(plain.poolShareCells, undefined, "no flag: a fair share, decided where the pool is");
  });

  it("refuses a share below one llama.cpp block and more swarms than a pool is sized for, with the bounds", () => {
    assert.throws(
      () => parseRun(["--goal", "g", "--pool-share", "100"]),
      (e: unknown) => {
        assert.ok(e instanceof UsageError);
        assert.match(e.message, /--pool-share expects 256 KV cells or more/);
        return true;
      },
    );
    assert.throws(() => parseRun(["--goal", "g", "--pool-swarms", "17"]), /--pool-swarms expects 1 to 16 swarms/);
    const base = { goal: "g", recipe: "r", modelPath: "m", workspace: "w", stateDir: "s", threads: 1 };
    const policy = { allow: [], ask: [], deny: [] };
    assert.equal(startSwarmParams.safeParse({ ...base, policy, poolShareCells: 100 }).success, false);
    assert.equal(startSwarmParams.safeParse({ ...base, policy, poolSwarms: 0 }).success, false);
  });

  it("sends the settings' share and pool size, and neither when they are the defaults", () => {
    const defaults = runtimeSettings(settingsSchema.parse({}));
    assert.equal(defaults.poolShareCells, undefined);
    assert.equal(defaults.poolSwarms, undefined);
    const set = runtimeSettings(settingsSchema.parse({ poolShareCells: 2048, poolSwarms: 2 }));
    assert.equal(set.poolShareCells, 2048);
    assert.equal(set.poolSwarms, 2);
    assert.equal(settingsSchema.safeParse({ poolShareCells: 10 }).success, false);
  });
});
