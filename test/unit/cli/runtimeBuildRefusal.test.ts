// `swarmboard runtime build` on a machine without a compiler, as a user runs it (the built CLI): PATH is a folder
// holding only node, so no compiler, cmake, npm, git or Vulkan tool is found. It must refuse before building, say
// what is missing with this platform's install commands, and leave the cache and the installed runtime as they
// were. Vulkan: this checkout's CPU build is installed, so a CPU build would rightly be "already built".
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync } from "node:fs";
import path from "node:path";
import { removeDir, tempDir } from "../workspace/gitFixture";

const root = path.resolve(__dirname, "../../../..");
const cli = path.join(root, "dist/cli/main.js");
const lastBuild = path.join(root, "node_modules/node-llama-cpp/llama/lastBuild.json");

describe("swarmboard runtime build without a compiler", function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => (dir = tempDir("runtime-refusal")));
  afterEach(() => removeDir(dir));

  it("refuses with what to install and leaves the cache and the installed runtime untouched", () => {
    assert.ok(existsSync(cli), `${cli} is missing: run npm run build first`);
    const bin = path.join(dir, "bin");
    mkdirSync(bin);
    symlinkSync(process.execPath, path.join(bin, "node"));
    const cache = path.join(dir, "cache");
    const installedBefore = existsSync(lastBuild) ? statSync(lastBuild).mtimeMs : undefined;
    const result = spawnSync(process.execPath, [cli, "runtime", "build", "--gpu", "vulkan"], {
      env: { HOME: dir, PATH: bin, SWARMBOARD_BUILD_CACHE: cache },
      encoding: "utf8",
      timeout: 100_000,
    });
    assert.equal(result.status, 1, `${result.stdout}\n${result.stderr}`);
    const said = result.stderr;
    const where = `${process.platform}-${process.arch}`;
    assert.ok(said.startsWith(`Cannot build the runtime for Vulkan on ${where}: missing`), said);
    for (const what of ["a C++ compiler", "cmake", "Node.js with npm", "the Vulkan shader compiler (glslc)"]) {
      assert.ok(said.includes(what), `the refusal names ${what}:\n${said}`);
    }
    if (process.platform === "linux" && said.includes("apt-get")) {
      assert.ok(said.includes("sudo apt-get install build-essential"), said);
      assert.ok(said.includes("sudo apt-get install cmake"), said);
    }
    assert.match(said, /Nothing was built; the runtime you have keeps working\./);
    assert.ok(!existsSync(cache) || readdirSync(cache).length === 0, "nothing was written to the cache");
    const installedAfter = existsSync(lastBuild) ? statSync(lastBuild).mtimeMs : undefined;
    assert.equal(installedAfter, installedBefore, "the installed runtime was not touched");
  });
});
