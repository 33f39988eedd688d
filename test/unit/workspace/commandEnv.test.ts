// The environment of a command is an allowlist: names without TOKEN/KEY/SECRET in them do not pass either, a
// recipe's declared names pass, and names that make a shell or the loader run code never pass, declared or not.
import assert from "node:assert/strict";
import { commandEnv } from "../../../src/workspace/commandEnv";

const worker = {
  PATH: "/usr/bin",
  LANG: "C.UTF-8",
  LC_ALL: "C",
  TERM: "xterm",
  HOME: "/home/user",
  TMPDIR: "/tmp/user",
  GH_PAT: "p",
  DATABASE_URL: "postgres://u:p@h/db",
  PGPASS: "p",
  MY_PASSPHRASE: "p",
  SENTRY_DSN: "d",
  NODE_ENV: "test",
  LD_PRELOAD: "/x.so",
  BASH_ENV: "/x.sh",
  NODE_OPTIONS: "--require /x.js",
};

describe("workspace: a command's environment", () => {
  it("passes only the allowlist, with the private home and tmp in place of the worker's", () => {
    const env = commandEnv(worker, { home: "/private/home", tmp: "/private/tmp" });
    const own = Object.keys(env).filter((k) => !k.startsWith("GIT_"));
    assert.deepEqual(own.sort(), ["HOME", "LANG", "LC_ALL", "PATH", "TERM", "TMPDIR"]);
    assert.equal(env.HOME, "/private/home");
    assert.equal(env.TMPDIR, "/private/tmp");
  });

  it("passes the names a recipe declares, but never one that runs code", () => {
    const env = commandEnv(worker, { home: "/h", pass: ["NODE_ENV", "DATABASE_URL", "LD_PRELOAD", "NODE_OPTIONS"] });
    assert.equal(env.NODE_ENV, "test");
    assert.equal(env.DATABASE_URL, worker.DATABASE_URL);
    assert.equal(env.LD_PRELOAD, undefined);
    assert.equal(env.NODE_OPTIONS, undefined);
    assert.equal(env.GH_PAT, undefined);
  });
});
