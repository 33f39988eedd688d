// The family matrix's end-to-end check: for each family, a realistic trajectory (thinking text before calls, read,
// edit_file with two blocks, a multi-kilobyte write_file, a failing then a passing test run, commit, merge) is
// forced token by token through the family's real chat template on the real runtime, every call runs against a
// real git worktree, and the sample task ends solved on the integration branch (median fixed, variance and its
// tests merged).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ToolName } from "../../../src/protocol/tools";
import { AgentChatFormat } from "../../../src/runtime/agentChatFormat";
import { createSwarmContext } from "../../../src/runtime/local/swarmContext";
import { AgentCalls } from "../../../src/worker/agent/agentCalls";
import { defaultPolicyRules } from "../../../src/worker/swarm/defaultPolicy";
import type { CatalogTool } from "../../../src/worker/agent/toolCatalog";
import { workspaceTools } from "../../../src/worker/agent/tools/workspaceTools";
import { callTool } from "../../unit/workspace/callTool";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { ensureFamilyModels, familyModelFile, modelFamilies } from "../../fixtures/gguf/familyModels";
import { git, makeSampleRepo } from "../../swarm/swarmFixtures";
import { sampleTaskTrajectory, varianceTestFile } from "./sampleTaskTrajectory";
import { testRuntime } from "../runtimeTestModels";

const toolNames: ToolName[] = ["read_file", "edit_file", "write_file", "run_command", "commit", "merge_progress"];
const tools: CatalogTool[] = workspaceTools.filter((t) => (toolNames as string[]).includes(t.name));

describe("model families: a forced trajectory solves the sample task through each real template", function () {
  this.timeout(900_000);
  let dir: string;

  before(async () => {
    dir = await ensureFamilyModels();
  });

  for (const family of modelFamilies) {
    it(`${family.label}: fixes median, adds variance with its tests, and merges`, async () => {
      const sample = makeSampleRepo();
      const model = await testRuntime.loadModel({ modelPath: familyModelFile(dir, family), threads: 1 });
      const swarm = await createSwarmContext(model, { maxAgents: 1, kvCells: 16_384, threads: 1 });
      try {
        const repo = await SwarmRepository.open({
          repoPath: sample.workspace,
          stateDir: sample.stateDir,
          swarm: "fam",
        });
        await repo.start({ includeUncommitted: false });
        const ws = await AgentWorkspace.open(repo, "agent-1", { policy: new CommandPolicy(defaultPolicyRules) });
        const format = await AgentChatFormat.create(
          model,
          "You are agent-1. Fix the task, test, commit, merge.",
          tools,
        );
        await swarm.appendToTrunk(format.trunkTokens);
        const agent = await swarm.fork("agent-1");
        const script = sampleTaskTrajectory();
        const calls = new AgentCalls(agent, format, tools, {
          maxArgTokens: () => 16_000,
          temperature: 0,
          seed: 1,
          script,
        });
        await calls.open("Fix median for even-length lists and add variance(values) with a test.");
        const testRuns: boolean[] = [];
        for (const step of script) {
          const call = await calls.next();
          assert.equal(call.kind, "call", `${step.tool}: ${JSON.stringify(call).slice(0, 300)}`);
          if (call.kind !== "call") return;
          assert.equal(call.name, step.tool);
          assert.equal(call.thought?.text, step.think, "the thought before the call went through the template");
          const out = await callTool(ws, call.name, JSON.parse(call.argsText));
          if (!out.ok) assert.fail(`${call.name} failed: ${out.error.code}: ${out.error.message}`);
          if (call.name === "run_command") testRuns.push((out.result as { exitCode: number | null }).exitCode === 0);
          await calls.answer(JSON.stringify({ result: out.result }));
        }
        assert.deepEqual(testRuns, [false, true], "the tests fail with the buggy variance, then pass");
        const integration = repo.integrationBranch;
        const check = mkdtempSync(path.join(os.tmpdir(), "swarmboard-family-check-"));
        try {
          git(sample.workspace, "worktree", "add", "-q", check, integration);
          assert.equal(git(check, "show", "HEAD:test/variance.test.js") + "\n", varianceTestFile);
          execFileSync("node", ["--test"], { cwd: check, stdio: "pipe" });
        } finally {
          git(sample.workspace, "worktree", "remove", "--force", check);
        }
      } finally {
        await swarm.dispose();
        await model.dispose();
        rmSync(sample.root, { recursive: true, force: true });
      }
    });
  }
});
