// Cancelling a runtime build whose processes do not stop on SIGTERM: a stand-in builder (scripts/buildRuntime.mjs
// in a scratch install) that ignores SIGTERM and starts a "compile" in a process group of its own, as ninja does,
// which ignores it too and holds the builder's output open. The cancel must still end both (SIGKILL after the
// grace period, to the compile's group as well) and resolve as cancelled; before, it waited for ever.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildRuntime } from "../../../src/worker/runtimeBuild/runtimeBuild";
import { removeDir, tempDir } from "../workspace/gitFixture";

const builder = `
import { spawn } from "node:child_process";
import path from "node:path";
if (process.argv.includes("--status")) {
  const cacheDir = path.join(process.env.SWARMBOARD_BUILD_CACHE, "k");
  console.log(JSON.stringify({ key: "k", cacheDir, installed: false, cached: true }));
  process.exit(0);
}
process.on("SIGTERM", () => console.log("builder ignores SIGTERM"));
const stubborn = 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000);';
const compile = spawn(process.execPath, ["-e", stubborn], { detached: true, stdio: "inherit" });
console.log("compiling pid=" + compile.pid);
setInterval(() => {}, 1000);
`;

/** Whether a process runs (a zombie, ended and not yet reaped, does not). */
function running(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  const text = readFileSync(stat, "utf8");
  return text.slice(text.lastIndexOf(")") + 2)[0] !== "Z";
}

describe("buildRuntime cancel", function () {
  this.timeout(20_000);
  let dir: string;
  beforeEach(() => (dir = tempDir("runtime-build-cancel")));
  afterEach(() => removeDir(dir));

  it("ends a build that ignores SIGTERM, with the compile group ninja-style under it", async () => {
    mkdirSync(path.join(dir, "scripts"));
    writeFileSync(path.join(dir, "scripts", "buildRuntime.mjs"), builder);
    const abort = new AbortController();
    let compilePid: number | undefined;
    const lines: string[] = [];
    const started = Date.now();
    const outcome = await buildRuntime({
      root: dir,
      gpu: "false",
      env: { ...process.env, SWARMBOARD_BUILD_CACHE: path.join(dir, "cache") },
      signal: abort.signal,
      killGraceMs: 1_000,
      onLine: (line) => {
        lines.push(line);
        const pid = /^compiling pid=(\d+)$/.exec(line)?.[1];
        if (pid === undefined) return;
        compilePid = Number(pid);
        abort.abort();
      },
    });
    const seconds = (Date.now() - started) / 1000;
    assert.equal(outcome.kind, "cancelled", JSON.stringify(outcome));
    assert.ok(lines.includes("builder ignores SIGTERM"), lines.join("\n"));
    assert.ok(compilePid !== undefined && !running(compilePid), `the compile ${compilePid} still runs`);
    assert.ok(seconds < 10, `the cancel took ${seconds} s`);
  });
});
