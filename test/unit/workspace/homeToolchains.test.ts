// Done-when: a sandboxed `npm test` runs with node and npm from a fake `~/.nvm/versions/node/*/bin` first on
// PATH (it was invisible: the home is an empty tmpfs, so npm was not found or another one ran), read-only, and
// nothing else of the home shows (not `~/.aws`, not nvm's other folders). Needs a usable bwrap.
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { probeBubblewrap } from "../../../src/workspace/bubblewrap";
import { runShellCommand } from "../../../src/workspace/commandRunner";
import { homeToolchainDirs, toolchainDirs } from "../../../src/workspace/homeToolchains";
import { removeDir, tempDir, write } from "./gitFixture";

describe("workspace: toolchains under the home, read-only in the sandbox", function () {
  this.timeout(60_000);
  let home = "";
  let work = "";
  const realPath = process.env.PATH;
  after(() => {
    process.env.PATH = realPath;
    removeDir(home);
    removeDir(work);
  });

  it("shows a version manager's toolchain, never the home itself or its credential folders", () => {
    const h = "/home/u";
    assert.deepEqual(homeToolchainDirs("/home/u/.nvm/versions/node/v22.1.0/bin", h), [
      "/home/u/.nvm/versions/node/v22.1.0",
    ]);
    assert.deepEqual(homeToolchainDirs("/home/u/.pyenv/shims", h), ["/home/u/.pyenv"]);
    assert.deepEqual(homeToolchainDirs("/home/u/.cargo/bin", h), ["/home/u/.cargo/bin", "/home/u/.rustup"]);
    assert.deepEqual(homeToolchainDirs("/home/u/.local/bin", h), ["/home/u/.local/bin", "/home/u/.local/lib"]);
    assert.deepEqual(homeToolchainDirs("/home/u/bin", h), ["/home/u/bin"]);
    for (const none of ["/home/u", "/home/u/", "/home/u/.ssh/bin", "/home/u/.aws", "/home/u/.config/tool/bin"])
      assert.deepEqual(homeToolchainDirs(none, h), [], none);
  });

  it("shows a version manager's folder for a PATH entry outside the home too (its shims run it by absolute path)", () => {
    // Seen on CI with HOME elsewhere: /root/.pyenv/shims/python3 execs /root/.pyenv/libexec/pyenv (exit 127 before).
    assert.deepEqual(toolchainDirs("/root/.pyenv/shims", "/tmp/home"), ["/root/.pyenv"]);
    assert.deepEqual(toolchainDirs("/opt/u/.nvm/versions/node/v20.1.0/bin", "/tmp/home"), [
      "/opt/u/.nvm/versions/node/v20.1.0",
    ]);
    assert.deepEqual(toolchainDirs("/opt/tool/bin", "/tmp/home"), ["/opt/tool/bin"]);
    assert.deepEqual(toolchainDirs("/home/u/.pyenv/shims", "/home/u"), ["/home/u/.pyenv"]);
    assert.deepEqual(toolchainDirs("/home/u/.aws", "/home/u"), []);
    assert.deepEqual(toolchainDirs("/opt/tool/bin", undefined), ["/opt/tool/bin"]);
  });

  it("runs npm test with node and npm from ~/.nvm first on PATH, read-only, and shows nothing else of the home", async () => {
    const probe = await probeBubblewrap();
    if (!probe.usable) assert.fail(`bubblewrap is needed here and is not usable: ${probe.reason}`);
    home = tempDir("nvm-home");
    work = tempDir("nvm-work");
    const prefix = path.join(home, ".nvm", "versions", "node", "v99.0.0");
    const bin = path.join(prefix, "bin");
    mkdirSync(bin, { recursive: true });
    // nvm's layout: bin/node, and bin/npm a link into lib/node_modules/npm (so the prefix, not bin alone, is needed).
    writeFileSync(path.join(bin, "node"), `#!/bin/sh\nexec '${process.execPath}' "$@"\n`);
    chmodSync(path.join(bin, "node"), 0o755);
    const cli = path.join(prefix, "lib", "node_modules", "npm", "bin", "npm-cli.js");
    write(
      prefix,
      "lib/node_modules/npm/bin/npm-cli.js",
      `#!/usr/bin/env node\nconsole.log("fake nvm npm", process.argv.slice(2).join(" "));\n`,
    );
    chmodSync(cli, 0o755);
    symlinkSync("../lib/node_modules/npm/bin/npm-cli.js", path.join(bin, "npm"));
    write(home, ".aws/credentials", "[default]\naws_secret_access_key = nvm-test-secret\n");
    write(home, ".nvm/alias/default", "v99.0.0\n");
    process.env.PATH = `${bin}:/usr/bin:/bin`;
    const out = await runShellCommand({
      command: `command -v node npm; npm test; ls -A '${home}' '${home}/.nvm'; cat '${home}/.aws/credentials'; touch '${prefix}/written' && echo WROTE`,
      cwd: work,
      sandbox: probe,
      sandboxOptions: { home },
      timeoutMs: 20_000,
      maxOutputBytes: 20_000,
    });
    process.env.PATH = realPath;
    assert.equal(out.sandboxed, true);
    assert.match(out.output, new RegExp(`^${bin}/node$`, "m"), out.output);
    assert.match(out.output, /^fake nvm npm test$/m, `npm from ~/.nvm ran: ${out.output}`);
    assert.doesNotMatch(out.output, /nvm-test-secret|^\.aws$|^alias$/m, `more of the home shows: ${out.output}`);
    assert.doesNotMatch(out.output, /WROTE/, "the toolchain is read-only");
  });
});
