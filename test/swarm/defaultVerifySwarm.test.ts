// Done-when (issue 28, verification on by default and failing closed): the default organisation recipe, which names
// no testCommand, launched (src/worker/swarmLauncher.ts) on a JavaScript project whose `npm test` runs mocha from its
// installed devDependency, detects `npm test`, says so at launch and at the swarm's start, and refuses a merge that
// breaks a passing test; with bubblewrap made unavailable, the tests cannot run and the merge is refused with why,
// not published. Real runtime, every call forced (the tiny ChatML test model); the integration branch never moves.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import type { TurnScript } from "../../src/protocol/turnScript";
import { denyAllApprover } from "../../src/workspace/approvals";
import * as bubblewrap from "../../src/workspace/bubblewrap";
import type { SwarmSummary } from "../../src/worker/swarm/swarmSession";
import { prepareLaunch, startLaunch, type PreparedLaunch } from "../../src/worker/swarmLauncher";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { removeDir, tempDir } from "../unit/workspace/gitFixture";
import { makeMochaProject, mathSource } from "../unit/workspace/mochaProject";
import { git, ofType } from "./swarmFixtures";

const addBroken = mathSource.replace("(a, b) => a + b;\nexports.mul", "(a, b) => a - b;\nexports.mul");
const subFixed = mathSource.replace("exports.sub = (a, b) => b - a;", "exports.sub = (a, b) => a - b;");

/** One worker that changes src/math.js, commits and merges, and a synthesist. */
function scriptWriting(content: string): TurnScript {
  return {
    agents: {
      "agent-1": [
        { tool: "write_file", args: { path: "src/math.js", content } },
        { tool: "commit", args: { message: "Change math" } },
        { tool: "merge_progress", args: {} },
        { tool: "finish", args: { summary: "tried to merge" } },
      ],
      synthesist: [{ tool: "write_report", args: { title: "Report", body: "see the board." } }],
    },
  };
}

interface Launched {
  readonly prepared: PreparedLaunch;
  readonly summary: SwarmSummary;
  readonly events: SwarmEvent[];
  /** The integration branch before the agent's first call and at the end. */
  readonly before: string;
  readonly after: string;
}

/** The organisation recipe launched as the CLI and the worker launch it, on `project`. */
async function launch(project: string, stateRoot: string, script: TurnScript): Promise<Launched> {
  const prepared = await prepareLaunch({
    kind: "new",
    launchedBy: "cli",
    inputs: {
      goal: "Change the math module",
      recipe: "organization",
      agents: 1,
      modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
      workspace: project,
      threads: 1,
    },
    stateDir: (id) => path.join(stateRoot, id),
    script,
  });
  const events: SwarmEvent[] = [];
  const branch = () => git(project, "rev-parse", `swarmboard/${prepared.recorded.swarmId}/main`);
  let before = "";
  const started = startLaunch(prepared, {
    approver: () => denyAllApprover,
    deliver: (batch) => {
      for (const e of batch) {
        if (before === "" && e.type === "agent-added") before = branch();
        events.push(e);
      }
    },
    batchMs: 0,
  });
  const summary = await started.summary;
  return { prepared, summary, events, before, after: branch() };
}

function mergeOf(run: Launched) {
  const merge = ofType(run.events, "tool-result").find(
    (r) => r.agentId === "agent-1" && r.summary.startsWith("merge:"),
  );
  const patches = ofType(run.events, "board-entry")
    .map((e) => e.entry)
    .filter((e) => e.kind === "PATCH_SUMMARY");
  return { merge, patches };
}

describe("verification on by default: the organisation recipe on a mocha project (real runtime, forced tokens)", function () {
  // One thread: on a machine shared with other work, more threads make decoding many times slower (FACTS).
  this.timeout(20 * 60_000);
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  describe("with bubblewrap: a merge that breaks a passing test", () => {
    let run: Launched;
    before(async function () {
      const sandbox = await bubblewrap.probeBubblewrap();
      assert.ok(sandbox.usable, `bubblewrap is needed for this test: ${sandbox.usable ? "" : sandbox.reason}`);
      const project = makeMochaProject();
      const state = tempDir("default-verify-state");
      dirs.push(project, state);
      run = await launch(project, state, scriptWriting(addBroken));
    });

    it("detects npm test at launch, saves it with the recipe and says it at the start", () => {
      const { prepared } = run;
      assert.equal(prepared.recipe.testCommand, "npm test");
      const warning = prepared.warnings.find((w) => w.includes("names no testCommand"));
      assert.match(warning ?? "", /merges are verified with "npm test" \(from package\.json's test script\)/);
      const saved = JSON.parse(readFileSync(path.join(prepared.recorded.stateDir, "recipe.json"), "utf8")) as {
        testCommand?: string;
      };
      assert.equal(saved.testCommand, "npm test", "a resume verifies with the same command");
      const started = ofType(run.events, "swarm-started")[0];
      assert.equal(started?.verification, 'merges verified with "npm test"; refused when the tests cannot run');
      // The tiers need a usable bubblewrap (test/unit/workspace/bubblewrap.test.ts): the start says commands run in it.
      assert.match(started?.commands ?? "", /^agent commands run in the sandbox \(bubblewrap/);
    });

    it("refuses the merge, naming the test it breaks, and the integration branch does not move", () => {
      assert.equal(run.summary.outcome, "completed", run.summary.reason);
      const { merge, patches } = mergeOf(run);
      assert.equal(merge?.summary, "merge: refused", JSON.stringify(patches.map((p) => p.text)));
      assert.equal(patches.length, 1, JSON.stringify(patches));
      assert.match(patches[0]?.text ?? "", /\(tests broke-tests\)/);
      assert.match(patches[0]?.text ?? "", /fail now: math adds/);
      assert.notEqual(run.before, "");
      assert.equal(run.after, run.before, "the integration branch moved");
    });
  });

  describe("with bubblewrap made unavailable: the tests cannot run", () => {
    let run: Launched;
    before(async function () {
      const probe = bubblewrap.probeBubblewrap;
      const reason = "the test's stand-in for a machine without bubblewrap";
      // The verifier's and the scratch run's probe (as cliNoSandboxChild.ts does for the whole CLI).
      Object.assign(bubblewrap, {
        probeBubblewrap: () => Promise.resolve({ usable: false, installed: false, reason }),
      });
      try {
        const project = makeMochaProject();
        const state = tempDir("default-verify-nobwrap");
        dirs.push(project, state);
        // A change that breaks nothing (it fixes a failing test): without a sandbox it is still not published.
        run = await launch(project, state, scriptWriting(subFixed));
      } finally {
        Object.assign(bubblewrap, { probeBubblewrap: probe });
      }
    });

    it("refuses the merge with why and what would let it run, not published unverified", () => {
      assert.equal(run.summary.outcome, "completed", run.summary.reason);
      const { merge, patches } = mergeOf(run);
      assert.equal(merge?.summary, "merge: refused", JSON.stringify(patches.map((p) => p.text)));
      assert.equal(patches.length, 1, JSON.stringify(patches));
      const text = patches[0]?.text ?? "";
      assert.match(text, /\(tests could-not-run\)/);
      assert.match(text, /the test's stand-in for a machine without bubblewrap/);
      assert.match(text, /install bubblewrap/);
      assert.doesNotMatch(text, /^merged/);
      const answer = ofType(run.events, "tool-result").find((r) => r.summary === "merge: refused");
      assert.ok(answer, "the agent was answered");
      assert.equal(run.after, run.before, "the integration branch moved");
      const started = ofType(run.events, "swarm-started")[0];
      assert.equal(
        started?.commands,
        "no sandbox, so every agent command asks for approval: the test's stand-in for a machine without bubblewrap",
        "the start says there is no sandbox and why",
      );
    });
  });
});
