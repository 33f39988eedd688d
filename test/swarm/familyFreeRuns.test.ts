// `swarmboard run` (the real CLI process, the real runtime) starts and completes a free run, grammar on, with each
// model family's test model (the family's real tokenizer and chat template, random weights): whatever the weights
// produce, every call is well-formed or answered with a clear tool error, no call is left as text in the family's
// own syntax, and the swarm ends with its report. One worker, a small pool, a few steps: the mechanics, fast.
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { swarmEventSchema, type SwarmEvent } from "../../src/protocol/swarmEvents";
import { ensureFamilyModels, familyModelFile, modelFamilies } from "../fixtures/gguf/familyModels";
import { runNode, tail } from "../processRun";
import { makeSampleRepo, ofType, repoRoot } from "./swarmFixtures";

const cli = path.join(repoRoot(), "dist", "cli", "main.js");

/** Each family's call opener, which must never reach an agent's text outside a parsed call. */
const callSyntaxInText = /<tool_call>|<\|tool_call>|\[TOOL_CALLS\]|\|\|call:|<function=|"parameters"\s*:/;

const workerTools = ["list_dir", "read_file", "post_finding"];

/** One worker, no synthesist (the session still writes the report), a few steps: each run stays short. */
const recipe = {
  name: "family-free-run",
  description: "One worker free-running on a family's test model.",
  roles: [{ name: "worker", count: 1, tools: workerTools, instructions: "Read the project and post what you find." }],
  topology: { kind: "fanout" },
  visibility: "shared",
  budgets: { wallClockMs: 90_000, tokensPerAgent: 100_000, kvCells: 3072, steps: 4 },
  taskSources: ["goal"],
};

function readEvents(file: string): SwarmEvent[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => swarmEventSchema.parse(JSON.parse(l)));
}

/** The swarm's last events, to say where a run that hung had got to. */
function lastEvents(stateDir: string): string {
  const file = path.join(stateDir, "events.jsonl");
  if (!existsSync(file)) return `(no ${file}: the swarm never started)`;
  return `its last events:\n${tail(readFileSync(file, "utf8"), 12)}`;
}

describe("a free run of `swarmboard run` on each family's test model (grammar on, random weights)", function () {
  this.timeout(900_000);
  let dir = "";

  before(async () => {
    assert.ok(existsSync(cli), `${cli} is missing: run npm run build first`);
    dir = await ensureFamilyModels();
  });

  for (const family of modelFamilies) {
    it(`${family.label}: starts, makes only well-formed calls or clear tool errors, and ends with its report`, async () => {
      const repo = makeSampleRepo();
      const recipeFile = path.join(repo.root, "recipe.json");
      writeFileSync(recipeFile, JSON.stringify(recipe));
      const out = await runNode(
        [
          ...[
            cli,
            "run",
            "--no-server",
            "--goal",
            "Fix median for even-length lists",
            "--recipe",
            recipeFile,
            "--plain",
          ],
          ...["--model", familyModelFile(dir, family), "--workspace", repo.workspace, "--state-dir", repo.stateDir],
          ...["--threads", "1"],
        ],
        // The recipe's wall clock, plus loading the model and decoding the trunk before it and the report after.
        { timeoutMs: recipe.budgets.wallClockMs + 180_000, whenOverdue: () => lastEvents(repo.stateDir) },
      );
      // 0: completed; 3: a budget ran out (random weights rarely finish on their own). Both end with a report.
      assert.ok(out.status === 0 || out.status === 3, `exit ${out.status}:\n${out.stdout}\n${out.stderr}`);
      const events = readEvents(path.join(repo.stateDir, "events.jsonl"));
      const ended = ofType(events, "swarm-ended");
      assert.equal(ended.length, 1, "the swarm ended once");
      assert.match(out.stdout, /^report: {3}(.+)$/m);
      const report = /^report: {3}(.+)$/m.exec(out.stdout)![1]!;
      assert.ok(existsSync(report), `the report ${report} was written`);

      const calls = ofType(events, "tool-call");
      const results = new Map(ofType(events, "tool-result").map((r) => [r.callId, r]));
      assert.ok(calls.length >= 1, "the worker made at least one call");
      const known = new Set([...workerTools, "finish", "spawn_subagent"]);
      for (const call of calls) {
        const result = results.get(call.callId);
        assert.ok(result, `call ${call.callId} (${call.tool}) has a result`);
        if (call.tool === "(malformed)") {
          assert.equal(result.ok, false, "a malformed call is a tool error");
          assert.match(result.summary, /^invalid-call: .+\. Call one of your tools/);
        } else {
          assert.ok(known.has(call.tool), `a tool of the agent's: ${call.tool}`);
          if (!result.ok) assert.match(result.summary, /^[a-z_-]+[:]|^not run|^kv-full/, result.summary);
        }
      }
      // A parsed call's text is its name and JSON; anything else the agent wrote must hold no call syntax.
      const freeText = ofType(events, "agent-text").filter((t) => ![...known].some((n) => t.text.startsWith(`${n} `)));
      for (const text of freeText)
        assert.doesNotMatch(text.text, callSyntaxInText, `a call left as text by ${text.agentId}: ${text.text}`);
    });
  }
});
