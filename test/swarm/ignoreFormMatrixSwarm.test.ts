// Issue 29 on the real runtime (forced tokens, the tiny Qwen2 ChatML model): whatever a project's .gitignore says
// about its dependency folders, an agent's commit never stages the links Swarmboard puts into its worktree, and the
// swarm merges. One swarm per form (`x`, `/x`, `x/`, `**/x`, no line), each with node_modules, .venv, vendor and
// target installed in the checkout (the recipe names vendor and target); its agent writes a file, commits and
// merges. The unit matrix (test/unit/workspace/dependencyLinkIgnoreForms.test.ts) covers the same forms tool by
// tool; this one goes through the whole swarm: set-up, links, sandboxed tools, the verified merge.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import type { SwarmSummary } from "../../src/worker/swarm/swarmSession";
import { denyAllApprover } from "../../src/workspace/approvals";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { processRuntime } from "../../src/worker/swarm/processRuntime";
import { SwarmSession } from "../../src/worker/swarm/swarmSession";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { git, makeSampleRepo, ofType, testRecipe, type SampleRepo } from "./swarmFixtures";

const FOLDERS = ["node_modules", ".venv", "vendor", "target"];
const FORMS: Record<string, (name: string) => string | null> = {
  bare: (n) => n,
  "root-slash": (n) => `/${n}`,
  "dir-slash": (n) => `${n}/`,
  "double-star": (n) => `**/${n}`,
  none: () => null,
};
const feature = "module.exports = function feature() {\n  return 42;\n};\n";

/** The sample project with `.gitignore` in one form, committed; then the folders installed, untracked. */
function project(line: (name: string) => string | null): SampleRepo {
  const repo = makeSampleRepo();
  const lines = FOLDERS.map(line).filter((l): l is string => l !== null);
  writeFileSync(path.join(repo.workspace, ".gitignore"), lines.map((l) => `${l}\n`).join(""));
  git(repo.workspace, "add", "-A");
  git(repo.workspace, "-c", "user.name=User", "-c", "user.email=user@example.invalid", "commit", "-qm", "ignores");
  for (const f of FOLDERS) {
    mkdirSync(path.join(repo.workspace, f, "dep"), { recursive: true });
    writeFileSync(path.join(repo.workspace, f, "dep", "index.js"), `// installed in ${f}\n`);
  }
  return repo;
}

describe("dependency links never reach `git add` in a swarm, whatever the ignore file says (issue 29)", function () {
  this.timeout(20 * 60_000);
  const runs = new Map<string, { repo: SampleRepo; summary: SwarmSummary; events: SwarmEvent[] }>();

  before(async function () {
    for (const [form, line] of Object.entries(FORMS)) {
      const repo = project(line);
      const events: SwarmEvent[] = [];
      const session = new SwarmSession(
        {
          swarmId: `forms-${form}`,
          goal: "Add the feature module",
          recipe: { ...testRecipe(1), dependencyFolders: ["vendor", "target"] },
          modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
          workspace: repo.workspace,
          stateDir: repo.stateDir,
          threads: 1,
          approver: denyAllApprover,
          policy: defaultPolicyRules,
          script: {
            agents: {
              "agent-1": [
                { tool: "write_file", args: { path: "src/feature.js", content: feature } },
                { tool: "commit", args: { message: "Add the feature module" } },
                { tool: "merge_progress", args: {} },
                { tool: "finish", args: { summary: "feature merged" } },
              ],
              synthesist: [{ tool: "finish", args: { summary: "-" } }],
            },
          },
        },
        (e) => events.push(e),
      );
      runs.set(form, { repo, summary: await session.run(), events });
    }
  });
  after(() => processRuntime.dropKeptContext());

  for (const form of Object.keys(FORMS)) {
    it(`with the ${form} form: the agent commits its file only, and it merges`, () => {
      const run = runs.get(form)!;
      assert.equal(run.summary.outcome, "completed", run.summary.reason);
      const results = ofType(run.events, "tool-result").filter((r) => r.agentId === "agent-1");
      const said = JSON.stringify(results.map((r) => r.summary));
      assert.deepEqual(
        results.slice(0, 3).map((r) => r.ok),
        [true, true, true],
        `write_file, commit and merge_progress succeed: ${said}`,
      );
      assert.match(results[2]!.summary, /^merge: merged/, said);
      const ws = run.repo.workspace;
      const branch = `swarmboard/forms-${form}/agent-1`;
      assert.equal(
        git(ws, "show", "--name-only", "--format=", branch),
        "src/feature.js",
        "the commit holds the file only",
      );
      const integration = git(ws, "for-each-ref", "--format=%(refname:short)", `refs/heads/swarmboard/forms-${form}/*`)
        .split("\n")
        .filter((b) => b !== "" && b !== branch);
      assert.equal(integration.length, 1, `one integration branch: ${integration.join(", ")}`);
      assert.equal(git(ws, "show", `${integration[0]}:src/feature.js`), feature.trim(), "merged");
      assert.equal(git(ws, "ls-tree", "-r", "--name-only", integration[0]!, "--", ...FOLDERS), "", "no link merged");
    });
  }
});
