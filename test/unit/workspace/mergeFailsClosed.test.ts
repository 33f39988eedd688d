// Verification fails closed: a merge whose tests could not run at all (the command policy does not allow the test
// command, a run past its time limit) is refused with why and what would let it run, and the integration branch
// stays; only the recipe's `verify: "off"` (the verifier's publishUnverified) publishes it, marked unverified.
import assert from "node:assert/strict";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { probeBubblewrap, type BubblewrapProbe } from "../../../src/workspace/bubblewrap";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { MergeVerifier, type MergeVerifierOptions } from "../../../src/workspace/mergeVerifier";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { callTool } from "./callTool";
import { cleanRepo, git, removeDir, tempDir } from "./gitFixture";

const noSandbox: BubblewrapProbe = { usable: false, installed: false, reason: "no bwrap in this test" };

describe("workspace: a merge whose tests could not run fails closed", function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  /** An agent's committed change merged under a verifier made of `options`; the result and whether main moved. */
  async function mergeWith(swarm: string, options: Omit<MergeVerifierOptions, "policy">, allow: string[]) {
    const project = cleanRepo();
    const stateDir = tempDir(`${swarm}-state`);
    dirs.push(project, stateDir);
    const repo = await SwarmRepository.open({ repoPath: project, stateDir, swarm });
    await repo.start({ includeUncommitted: false });
    const policy = new CommandPolicy({ allow, ask: [], deny: [] });
    const verifier = new MergeVerifier(repo, { ...options, policy });
    const ws = await AgentWorkspace.open(repo, "a1", { policy, sandbox: options.sandbox ?? noSandbox, verifier });
    const before = git(project, "rev-parse", repo.integrationBranch).trim();
    assert.ok((await callTool(ws, "write_file", { path: "NOTES.md", content: "notes\n" })).ok);
    assert.ok((await callTool(ws, "commit", { message: "notes" })).ok);
    const out = await callTool(ws, "merge_progress", {});
    assert.ok(out.ok, JSON.stringify(out));
    const moved = git(project, "rev-parse", repo.integrationBranch).trim() !== before;
    return { result: out.result, moved };
  }

  it("refuses a merge whose test command the policy does not allow, saying how to allow it", async () => {
    const { result, moved } = await mergeWith("fc-policy", { testCommand: "npm test", sandbox: noSandbox }, []);
    assert.equal(result.status, "refused", JSON.stringify(result));
    assert.match(result.message, /^Not merged: the tests could not run on the integration branch: /);
    assert.match(result.message, /"npm test" is not allowed outright by the command policy/);
    assert.match(result.message, /add it to swarmboard\.commandPolicy\.allow/);
    assert.match(result.message, /"verify": "off" would publish it unverified/);
    const v = "verification" in result ? result.verification : undefined;
    assert.equal(v?.status, "could-not-run");
    assert.equal(moved, false, "the integration branch moved");
  });

  it("refuses a merge whose tests ran past their time limit", async () => {
    const sandbox = await probeBubblewrap();
    assert.ok(sandbox.usable, `bubblewrap is needed for this test: ${sandbox.usable ? "" : sandbox.reason}`);
    const options = { testCommand: "sleep 5", sandbox, timeoutMs: 500 };
    const { result, moved } = await mergeWith("fc-timeout", options, ["sleep 5"]);
    assert.equal(result.status, "refused", JSON.stringify(result));
    assert.match(result.message, /timed out|ran past 500 ms/);
    assert.equal(moved, false, "the integration branch moved");
  });

  it('publishes it marked unverified when the recipe says verify: "off"', async () => {
    const options = { testCommand: "npm test", sandbox: noSandbox, publishUnverified: true };
    const { result, moved } = await mergeWith("fc-off", options, []);
    assert.equal(result.status, "merged", JSON.stringify(result));
    const v = "verification" in result ? result.verification : undefined;
    assert.equal(v?.status, "unverified");
    assert.match(result.message, /unverified: the tests could not run/);
    assert.equal(moved, true);
  });
});
