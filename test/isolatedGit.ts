// Every test process (each mocha tier, and the host tier's runner, whose code-server, extension host and worker
// inherit its environment) runs git as a fresh machine would: no global or system config, and no identity guessed
// from the user name and host name. A developer's ~/.gitconfig would otherwise hide a missing identity that a new
// machine or a CI runner fails on; with this, such a test fails here first. Each repository a test makes sets the
// identity it needs itself (`-c user.name=...` or `git config` in that repository). Loaded once where each tier
// starts: the `require` of test/{unit,runtime,swarm}/.mocharc.json, and the first import of test/host's runners.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const folder = mkdtempSync(path.join(os.tmpdir(), "swarmboard-test-gitconfig-"));
const globalConfig = path.join(folder, "gitconfig");
// useConfigOnly: git refuses to guess an identity (root@host) where a machine's host name would let it.
writeFileSync(globalConfig, "[user]\n\tuseConfigOnly = true\n");

process.env.GIT_CONFIG_GLOBAL = globalConfig;
process.env.GIT_CONFIG_NOSYSTEM = "1";
for (const name of ["GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "EMAIL"]) {
  delete process.env[name];
}
process.on("exit", () => rmSync(folder, { recursive: true, force: true }));

/** The empty global config every git of this process and its children reads. */
export const isolatedGitConfig = globalConfig;
