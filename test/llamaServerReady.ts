// CI builds llama-server in the background while the first tiers run (scripts/setup.sh --server-in-background).
// The tiers that start it (runtime, swarm) wait here, once, before their first test, for a build that is still
// running: a test's own timeout is sized for the test, not for a compile. Where no build runs, nothing waits, and
// a missing server fails in the test that needs it, with what to run.
import { execFile } from "node:child_process";
import path from "node:path";

const script = path.resolve(__dirname, "../../scripts/buildLlamaServer.mjs");
/** The longest the cold build took on a 2-core machine was about 13 minutes beside other work; an hour is a hang. */
const waitMs = 60 * 60_000;

export const mochaHooks = {
  async beforeAll(this: Mocha.Context): Promise<void> {
    this.timeout(waitMs);
    const started = Date.now();
    // --wait returns at once where nothing builds; its exit code is the test's business, not this hook's.
    await new Promise<void>((resolve) =>
      execFile(process.execPath, [script, "--print-path", "--wait"], () => resolve()),
    );
    const waited = (Date.now() - started) / 1000;
    if (waited > 10)
      console.log(`  (waited ${waited.toFixed(0)} s for the llama-server build running beside the tests)`);
  },
};
