// `swarmboard runtime build` when the build does not finish, run as a user runs it (the built CLI) on an install
// like an unpacked extension's (runtimeBuildInstall.ts) holding a working patched runtime of an older patch (its
// key differs, so the command builds), with node-llama-cpp's bundled llama.cpp source and an empty cache. Real
// processes throughout: node-llama-cpp's build, cmake, ninja or make, the compilers.
// - A broken compiler (c++, cc, g++, ... on PATH are scripts that print an error and exit 1; the tool check still
//   passes, they exist): the build fails within seconds at cmake's compiler check, the command exits 1 saying the
//   runtime you have keeps working, its first error, what to do and the log under <cache>/logs/, and shows the log's
//   last lines without node-llama-cpp's usage text; nothing is in the cache, no half-built folder is left, and the
//   old runtime is as it was and still shares cells.
// - A cancel: the real compilers, SIGINT to the command as soon as a compiler runs (Ctrl-C); every process of the
//   build ends (checked in /proc, including the compile process groups ninja makes), the command exits 4, nothing
//   is in the cache and the old runtime is as it was.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { removeDir, tempDir } from "../unit/workspace/gitFixture";
import type { ProbeReport } from "./packagedRuntimeProbe";
import { freshInstall, installedFolder, llamaDirOf, repoRoot } from "./runtimeBuildInstall";
import { bundleRuntimeProbe } from "./runtimeProbeBundle";
import { sharedModelPath } from "./runtimeTestModels";

interface Proc {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly start: string;
  readonly comm: string;
  /** R, S, D, ... or Z: ended, not yet reaped by its new parent (this container's init reaps late). */
  readonly state: string;
}

function processes(): Proc[] {
  const rows: Proc[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // ended while we read
    }
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const [state, ppid, pgid] = fields;
    rows.push({ pid: Number(name), ppid: Number(ppid), pgid: Number(pgid), start: fields[19]!, comm, state: state! });
  }
  return rows;
}

function descendants(root: number): Proc[] {
  const all = processes();
  const found: Proc[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const proc of all.filter((p) => p.ppid === parent)) {
      found.push(proc);
      queue.push(proc.pid);
    }
  }
  return found;
}

const compilers = new Set(["cc1plus", "cc1", "c++", "g++", "gcc", "cc", "clang", "clang++"]);

describe("swarmboard runtime build: a failed build and a cancelled one keep the runtime you have", function () {
  this.timeout(300_000);
  let dir: string;
  let root: string;
  let cache: string;
  let oldKey: string;
  let installed: () => string;

  before(async () => {
    dir = tempDir("runtime-build-failure");
    cache = path.join(dir, "cache");
    const status = spawnSync(process.execPath, [path.join(repoRoot, "scripts/buildRuntime.mjs"), "--status"], {
      encoding: "utf8",
      env: { ...process.env, SWARMBOARD_RUNTIME_BUILD: "portable" },
    });
    const key = (JSON.parse(status.stdout.trim()) as { key: string }).key;
    oldKey = key.replace(/-native-[0-9a-f]{16}-/, "-native-0000000000000000-");
    assert.notEqual(oldKey, key);
    root = freshInstall(dir, { source: true, installedKey: oldKey });
    await bundleRuntimeProbe(repoRoot, path.join(root, "dist", "runtimeProbe.js"));
    // What says the installed runtime is untouched: its key, lastBuild.json, each file's size and mtime.
    installed = () => {
      const llama = llamaDirOf(root);
      const files = readdirSync(path.join(llama, "localBuilds"), { recursive: true, encoding: "utf8" })
        .map((rel) => path.join(llama, "localBuilds", rel))
        .filter((file) => statSync(file).isFile())
        .map((file) => `${path.relative(llama, file)} ${statSync(file).size} ${statSync(file).mtimeMs}`);
      return [readFileSync(path.join(llama, "lastBuild.json"), "utf8"), ...files.sort()].join("\n");
    };
  });

  after(() => removeDir(dir));

  function assertNothingLeft(before: string): void {
    assert.deepEqual(readdirSync(cache), ["logs"], "the cache holds no entry and no staging folder");
    assert.deepEqual(
      readdirSync(path.join(llamaDirOf(root), "localBuilds")),
      [installedFolder()],
      "no half-built folder",
    );
    assert.equal(installed(), before, "the installed runtime is as it was");
  }

  it("fails on a broken compiler: says the cause, what to do and the log, and keeps the runtime", () => {
    const bin = path.join(dir, "broken-bin");
    mkdirSync(bin);
    for (const name of ["c++", "g++", "cc", "gcc", "clang", "clang++"]) {
      const script = [
        "#!/bin/sh",
        `[ "$1" = "--version" ] && { echo "${name} (Broken) 12.2.0"; exit 0; }`,
        `echo "${name}: internal error: broken on purpose by the test" >&2`,
        "exit 1",
        "",
      ].join("\n");
      writeFileSync(path.join(bin, name), script);
      chmodSync(path.join(bin, name), 0o755);
    }
    const before = installed();
    const started = Date.now();
    const result = spawnSync(process.execPath, [path.join(root, "dist/cli/main.js"), "runtime", "build"], {
      env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}`, SWARMBOARD_BUILD_CACHE: cache },
      encoding: "utf8",
      timeout: 240_000,
    });
    const seconds = (Date.now() - started) / 1000;
    const said = result.stderr;
    assert.equal(result.status, 1, `${result.stdout.slice(-3000)}\n${said}`);
    assert.match(said, /^Last lines:\n/);
    assert.match(said, /\nThe runtime build failed \(exit 1\); the runtime you have keeps working\.\n/);
    assert.match(said, /\nFirst error: .*(internal error: broken on purpose|CMake Error)/);
    assert.match(said, /then build again: Swarmboard: Build Runtime for This Machine, or `swarmboard runtime build`/);
    // The summary ends the output (what the notification, the output's last lines, shows): the log's path last.
    const logFile = /\nLog: (.+\.log)\n$/.exec(said)?.[1];
    assert.ok(logFile !== undefined && path.dirname(logFile) === path.join(cache, "logs"), said);
    assert.match(readFileSync(logFile, "utf8"), /internal error: broken on purpose by the test/);
    const last = said.slice("Last lines:\n".length, said.indexOf("The runtime build failed"));
    assert.match(last, /\[swarmboard runtime\] FAILED: node-llama-cpp source download --gpu false failed/);
    // The build's own last line says to run the command again, not a clone's script.
    assert.match(last, /run Swarmboard: Build Runtime for This Machine \(or `swarmboard runtime build`\) again\.\n$/);
    assert.doesNotMatch(last, /--noBundle|^\s+at /m, "node-llama-cpp's usage text and stack frames are left out");
    assertNothingLeft(before);
    const report = probe();
    assert.equal(report.build, "patched-local-build", report.notice ?? "");
    assert.equal(report.mode, "shared-cells");
    console.log(`      (failed in ${seconds.toFixed(1)} s)`);
  });

  it("cancels on Ctrl-C: every build process ends, nothing is cached, the runtime stays", async () => {
    const before = installed();
    const cli = spawn(process.execPath, [path.join(root, "dist/cli/main.js"), "runtime", "build"], {
      env: { ...process.env, SWARMBOARD_BUILD_CACHE: cache },
    });
    let output = "";
    cli.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    cli.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => cli.on("close", (code) => resolve(code)));
    const started = Date.now();
    let tree: Proc[] = [];
    // The build proper (its first progress line, past cmake's configure), with a compiler running in it.
    const building = /^\[\s*\d+(%|\/\d+)\]\s+Building/m;
    while (!building.test(output) || !tree.some((p) => compilers.has(p.comm))) {
      assert.ok(Date.now() - started < 240_000, `no compiler started within 240 s:\n${output.slice(-3000)}`);
      assert.equal(cli.exitCode, null, `the build ended before a compiler started:\n${output.slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      tree = descendants(cli.pid!);
    }
    const compileStarted = (Date.now() - started) / 1000;
    cli.kill("SIGINT");
    const code = await exited;
    const ended = (Date.now() - started) / 1000 - compileStarted;
    assert.equal(code, 4, output.slice(-3000));
    assert.match(output, /The runtime build was cancelled; nothing was stored in the cache\./);
    const groups = new Set(tree.map((p) => p.pgid));
    // Under ninja each compile has a process group of its own (buildProcessTree.ts): say whether this run had them.
    const compileGroups = new Set(
      tree.filter((p) => compilers.has(p.comm) && p.pgid !== tree[0]!.pgid).map((p) => p.pgid),
    );
    const alive = () =>
      processes().filter(
        (p) => p.state !== "Z" && (groups.has(p.pgid) || tree.some((t) => t.pid === p.pid && t.start === p.start)),
      );
    const closed = Date.now();
    while (alive().length > 0 && Date.now() - closed < 3_000) await new Promise((resolve) => setTimeout(resolve, 100));
    const left = alive();
    assert.deepEqual(left, [], `build processes left 3 s after the cancel (of ${tree.map((p) => p.comm).join(", ")})`);
    assertNothingLeft(before);
    console.log(
      `      (a compiler ran after ${compileStarted.toFixed(1)} s; all ${tree.length} processes in ${groups.size} ` +
        `groups, ${compileGroups.size} of them compiles, ended ${ended.toFixed(1)} s after Ctrl-C)`,
    );
  });

  function probe(): ProbeReport {
    const result = spawnSync(
      process.execPath,
      [path.join(root, "dist", "runtimeProbe.js"), sharedModelPath("stories260K.gguf")],
      {
        cwd: dir,
        encoding: "utf8",
        timeout: 120_000,
      },
    );
    const line = result.stdout.split("\n").find((l) => l.startsWith("PROBE "));
    assert.ok(line !== undefined, `the probe printed no report:\n${result.stdout}\n${result.stderr.slice(-2000)}`);
    assert.ok(existsSync(path.join(root, "dist", "runtimeProbe.js")));
    return JSON.parse(line.slice("PROBE ".length)) as ProbeReport;
  }
});
