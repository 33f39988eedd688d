// A recorded run re-run from its trace (the real CLI process, the real runtime on the tiny ChatML test model): a
// `swarmboard run` of two workers and a synthesist is recorded; `swarmboard replay-script` turns its events.jsonl
// into a turn script; `swarmboard run --script` re-runs it on a fresh clone of the same repository commit, and the
// replay ends with the same board (kinds, authors, texts), the same merged files and the same report. The same
// re-run from a trace with one recorded call changed ends differently, and the comparison says where.
// `swarmboard replay <state dir>` does the extraction and the re-run in one step, and refuses a workspace at another
// commit. A free run on a family test model replays to the same end, and with one recorded call changed it does not.
import assert from "node:assert/strict";
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { swarmEventSchema, type SwarmEvent } from "../../src/protocol/swarmEvents";
import type { TurnScript } from "../../src/protocol/turnScript";
import { ensureFamilyModels, familyModelFile, modelFamilies } from "../fixtures/gguf/familyModels";
import { runNode, type ProcessRunResult } from "../processRun";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { git, makeSampleRepo, ofType, repoRoot, testRecipe, type SampleRepo } from "./swarmFixtures";

const cli = path.join(repoRoot(), "dist", "cli", "main.js");
const model = sharedModelPath("tiny-random-qwen2-chatml.gguf");
const goal = "Fix median for even-length lists";

const oldMedian = `  const sorted = [...values].sort();
  const mid = Math.floor(sorted.length / 2);
  // FIXME: wrong for even-length lists, and sort() compares as strings.
  return sorted[mid];`;
const newMedian = `  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 0 ? (sorted[mid - 1] + sorted[mid]) / 2 : sorted[mid];`;

/** The recorded run's calls: agent-1 fixes and merges, agent-2 reads, reports and messages, the synthesist writes. */
const recordedScript: TurnScript = {
  agents: {
    "agent-1": [
      { tool: "claim", args: { scope: { paths: ["src/stats.js"] }, text: "fix median for even-length lists" } },
      { tool: "edit_file", args: { path: "src/stats.js", search: oldMedian, replace: newMedian } },
      { tool: "commit", args: { message: "Fix median for even-length lists" } },
      { tool: "merge_progress", args: {} },
      {
        tool: "post_finding",
        args: { kind: "PATCH_SUMMARY", text: "median sorts numerically", refs: [{ path: "src/stats.js", line: 9 }] },
      },
      { tool: "finish", args: { summary: "median fixed and merged" } },
    ],
    "agent-2": [
      { tool: "read_file", args: { path: "src/stats.js" } },
      {
        tool: "post_finding",
        args: { kind: "FACT", text: "mean throws on an empty list", refs: [{ path: "src/stats.js", line: 4 }] },
      },
      { tool: "send_message", args: { to: "agent-1", text: "Tell me when median is merged." } },
      { tool: "finish", args: { summary: "mean noted" } },
    ],
    synthesist: [
      { tool: "write_report", args: { title: "Swarm report", body: "median is fixed and merged; mean is noted." } },
    ],
  },
};

/** The real CLI to its end; `wallClockMs` is the run's own budget (the free run's recipe gives a longer one). */
function runCli(args: string[], wallClockMs = 120_000) {
  assert.ok(existsSync(cli), `${cli} is missing: run npm run build first`);
  // The budget plus loading the model, decoding the trunk and writing the report.
  return runNode([cli, ...args], { timeoutMs: wallClockMs + 180_000 });
}

function readEvents(file: string): SwarmEvent[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => swarmEventSchema.parse(JSON.parse(l)));
}

/** What a run ended with: its board, its merged files and its report, with the run's own swarm id masked. */
interface RunOutcome {
  readonly exit: number | null;
  readonly board: string[];
  readonly mergedTree: string;
  readonly mergedFiles: string;
  readonly report: string;
}

/** `swarmboard run` of the test recipe on a workspace with a turn script; what it ended with. */
async function runSwarm(
  workspace: string,
  stateDir: string,
  scriptFile: string,
  recipeFile: string,
): Promise<RunOutcome> {
  const out = await runCli([
    ...["run", "--no-server", "--goal", goal, "--recipe", recipeFile, "--model", model, "--workspace", workspace],
    ...["--state-dir", stateDir, "--script", scriptFile, "--threads", "1", "--plain"],
  ]);
  return outcomeOf(workspace, stateDir, out);
}

/** What a CLI run that printed `out` ended with, read from its state dir and its workspace. */
function outcomeOf(workspace: string, stateDir: string, out: ProcessRunResult): RunOutcome {
  // 0 completed, 1 failed, 3 a budget ran out (a free run on random weights): each ends with a report.
  assert.ok([0, 1, 3].includes(out.status ?? -1), `exit ${out.status}:\n${out.stdout}\n${out.stderr}`);
  const { swarmId } = JSON.parse(readFileSync(path.join(stateDir, "settings.json"), "utf8")) as { swarmId: string };
  const mask = (text: string) => text.split(swarmId).join("<swarm>");
  const events = readEvents(path.join(stateDir, "events.jsonl"));
  const integration = ofType(events, "swarm-started")[0]?.integrationBranch;
  const reportFile = /^report: {3}(.+)$/m.exec(out.stdout)?.[1];
  assert.ok(reportFile && existsSync(reportFile), `a report:\n${out.stdout}`);
  return {
    exit: out.status,
    // Each entry as kind, author and text: each author's in the order they were posted. (How two agents' entries
    // interleave depends on which tool returned first, which the script does not force.)
    board: ofType(events, "board-entry")
      .map((e) => ({ author: e.entry.author, line: mask(`${e.entry.kind} ${e.entry.author}: ${e.entry.text}`) }))
      .sort((a, b) => a.author.localeCompare(b.author))
      .map((e) => e.line),
    mergedTree: integration ? git(workspace, "rev-parse", `${integration}^{tree}`) : "(no integration branch)",
    mergedFiles: integration ? git(workspace, "diff", "main", integration) : "",
    report: mask(readFileSync(reportFile, "utf8")),
  };
}

/** Where two runs ended differently, one line each; empty when they ended the same. */
function differences(recorded: RunOutcome, replayed: RunOutcome): string[] {
  const found: string[] = [];
  if (recorded.exit !== replayed.exit) found.push(`exit ${recorded.exit} / ${replayed.exit}`);
  const length = Math.max(recorded.board.length, replayed.board.length);
  for (let i = 0; i < length; i++)
    if (recorded.board[i] !== replayed.board[i])
      found.push(`board entry ${i + 1}: ${recorded.board[i] ?? "(none)"} / ${replayed.board[i] ?? "(none)"}`);
  if (recorded.mergedTree !== replayed.mergedTree)
    found.push(`merged files: tree ${recorded.mergedTree} / ${replayed.mergedTree}`);
  if (recorded.report !== replayed.report) found.push(`report: ${recorded.report} / ${replayed.report}`);
  return found;
}

describe("a recorded `swarmboard run` replayed from its trace (real CLI, tiny ChatML test model)", function () {
  this.timeout(900_000);
  let repo: SampleRepo;
  let recipeFile = "";
  let recorded: RunOutcome;
  /** A clone of the recorded run's repository, at the commit the run started from, made before the run. */
  const freshClone = (name: string): string => {
    const target = path.join(repo.root, name);
    git(repo.root, "clone", "-q", "--branch", "main", path.join(repo.root, "pristine"), target);
    return target;
  };

  before(async () => {
    repo = makeSampleRepo();
    git(repo.root, "clone", "-q", "--bare", repo.workspace, path.join(repo.root, "pristine"));
    recipeFile = path.join(repo.root, "recipe.json");
    writeFileSync(recipeFile, JSON.stringify(testRecipe(2)));
    const scriptFile = path.join(repo.root, "recorded-script.json");
    writeFileSync(scriptFile, JSON.stringify(recordedScript));
    recorded = await runSwarm(repo.workspace, repo.stateDir, scriptFile, recipeFile);
  });

  /** The script `swarmboard replay-script` extracts from an events file. */
  async function extract(eventsFile: string, name: string): Promise<string> {
    const out = await runCli(["replay-script", eventsFile]);
    assert.equal(out.status, 0, out.stderr);
    const file = path.join(repo.root, name);
    writeFileSync(file, out.stdout);
    return file;
  }

  it("records a run that did the work: a merged fix, findings of two agents, the report", async () => {
    assert.equal(recorded.exit, 0);
    assert.match(recorded.mergedFiles, /\+ {2}const sorted = \[\.\.\.values\]\.sort\(\(a, b\) => a - b\);/);
    for (const line of [
      "PATCH_SUMMARY agent-1: median sorts numerically",
      "FACT agent-2: mean throws on an empty list",
      "MESSAGE agent-2: Tell me when median is merged.",
    ])
      assert.ok(recorded.board.includes(line), `${line} in\n${recorded.board.join("\n")}`);
    assert.equal(recorded.report, "# Swarm report\n\nmedian is fixed and merged; mean is noted.\n");
  });

  it("re-runs from its trace on a fresh clone of the same commit to the same board, merged files and report", async () => {
    const scriptFile = await extract(path.join(repo.stateDir, "events.jsonl"), "replay-script.json");
    const replayed = await runSwarm(freshClone("replay"), path.join(repo.root, "replay-state"), scriptFile, recipeFile);
    assert.deepEqual(differences(recorded, replayed), []);
    assert.equal(replayed.mergedFiles, recorded.mergedFiles);
  });

  it("does both in one step with `swarmboard replay <state dir>`, to the same end", async () => {
    const workspace = freshClone("one-step");
    const stateDir = path.join(repo.root, "one-step-state");
    const out = await runCli(["replay", repo.stateDir, "--workspace", workspace, "--state-dir", stateDir, "--plain"]);
    assert.match(out.stdout, /^replaying swarm \S+ \(.*events\.jsonl\)$/m);
    assert.deepEqual(differences(recorded, outcomeOf(workspace, stateDir, out)), []);
  });

  it("refuses to replay an events file without the run's saved inputs beside it, saying why (exit 2)", async () => {
    const lone = path.join(repo.root, "lone", "events.jsonl");
    mkdirSync(path.dirname(lone));
    copyFileSync(path.join(repo.stateDir, "events.jsonl"), lone);
    const out = await runCli(["replay", lone, "--workspace", freshClone("refused")]);
    assert.equal(out.status, 2, `${out.stdout}\n${out.stderr}`);
    assert.match(
      out.stderr,
      /lone\/settings\.json cannot be read .* replay reads the goal, recipe and model a run saved/,
    );
  });

  it("refuses to replay on a workspace at another commit than the run started from, naming both (exit 2)", async () => {
    const workspace = freshClone("moved");
    writeFileSync(path.join(workspace, "NOTES.md"), "a commit the recorded run never saw\n");
    git(workspace, "add", "-A");
    git(workspace, "-c", "user.name=User", "-c", "user.email=user@example.invalid", "commit", "-qm", "later");
    const base = git(repo.workspace, "rev-parse", "main");
    const out = await runCli([
      "replay",
      repo.stateDir,
      "--workspace",
      workspace,
      "--state-dir",
      path.join(repo.root, "moved-state"),
    ]);
    assert.equal(out.status, 2, `${out.stdout}\n${out.stderr}`);
    assert.match(
      out.stderr,
      new RegExp(`moved is at [0-9a-f]{12}, but swarm \\S+ started from ${base.slice(0, 12)}: check out ${base}`),
    );
    assert.ok(!existsSync(path.join(repo.root, "moved-state")), "no replay swarm was started");
  });

  /** A copy of the recorded trace with the one call of `agentId` to `tool` given other arguments. */
  function changeOneCall(name: string, agentId: string, tool: string, change: (args: object) => object): string {
    let changed = 0;
    const lines = readFileSync(path.join(repo.stateDir, "events.jsonl"), "utf8")
      .split("\n")
      .map((line) => {
        if (line.trim() === "") return line;
        const event = swarmEventSchema.parse(JSON.parse(line));
        if (event.type !== "tool-call" || event.agentId !== agentId || event.tool !== tool) return line;
        changed++;
        const args = (typeof event.args === "string" ? JSON.parse(event.args) : event.args) as object;
        return JSON.stringify({ ...event, args: change(args) });
      });
    assert.equal(changed, 1, `one recorded ${tool} call of ${agentId}`);
    const file = path.join(repo.root, `${name}-events.jsonl`);
    writeFileSync(file, lines.join("\n"));
    return file;
  }

  async function replayOf(eventsFile: string, name: string): Promise<RunOutcome> {
    const scriptFile = await extract(eventsFile, `${name}-script.json`);
    return runSwarm(freshClone(name), path.join(repo.root, `${name}-state`), scriptFile, recipeFile);
  }

  it("re-runs a trace with one finding's text changed to a different board, and says where", async () => {
    const trace = changeOneCall("finding", "agent-2", "post_finding", (args) => ({
      ...args,
      text: "mean returns NaN on an empty list",
    }));
    const found = differences(recorded, await replayOf(trace, "finding"));
    assert.equal(found.length, 1, found.join("\n"));
    assert.match(
      found[0]!,
      /^board entry \d+: FACT agent-2: mean throws on an empty list \/ FACT agent-2: mean returns NaN on an empty list$/,
    );
  });

  it("re-runs a trace with one edit changed to different merged files, and says where", async () => {
    const trace = changeOneCall("edit", "agent-1", "edit_file", (args) => ({
      ...args,
      replace: newMedian.replace("(a, b) => a - b", "(a, b) => b - a"),
    }));
    const replayed = await replayOf(trace, "edit");
    const found = differences(recorded, replayed);
    assert.equal(found.length, 1, found.join("\n"));
    assert.match(found[0]!, /^merged files: tree [0-9a-f]{40} \/ [0-9a-f]{40}$/);
    assert.match(replayed.mergedFiles, /\(a, b\) => b - a/);
  });
});

describe("a free `swarmboard run` on a family test model replayed from its trace (random weights, grammar on)", function () {
  // Three CLI runs of the family model (recorded, replayed, replayed with a call changed): 26 min at load 25.
  this.timeout(2_400_000);

  it("Qwen2.5-Instruct: the replay on a fresh clone ends with the same board, merged files and report", async () => {
    const family = modelFamilies.find((f) => f.id === "qwen2.5");
    assert.ok(family, "the Qwen2.5 family test model");
    const familyModel = familyModelFile(await ensureFamilyModels([family]), family);
    const repo = makeSampleRepo();
    git(repo.root, "clone", "-q", "--bare", repo.workspace, path.join(repo.root, "pristine"));
    const recipeFile = path.join(repo.root, "recipe.json");
    // One worker with reading and posting tools, a few steps; the session writes the report.
    writeFileSync(
      recipeFile,
      JSON.stringify({
        name: "free-replay",
        description: "One worker free-running on a family's test model.",
        roles: [
          {
            name: "worker",
            count: 1,
            tools: ["list_dir", "read_file", "post_finding"],
            instructions: "Read the project and post what you find.",
          },
        ],
        topology: { kind: "fanout" },
        visibility: "shared",
        budgets: { wallClockMs: 900_000, tokensPerAgent: 100_000, kvCells: 3072, steps: 4 },
        taskSources: ["goal"],
      }),
    );
    const free = await runCli(
      [
        ...[
          "run",
          "--no-server",
          "--goal",
          goal,
          "--recipe",
          recipeFile,
          "--model",
          familyModel,
          "--workspace",
          repo.workspace,
        ],
        ...["--state-dir", repo.stateDir, "--threads", "1", "--plain"],
      ],
      300_000,
    ); // its 4 steps end it long before its wall clock
    const recorded = outcomeOf(repo.workspace, repo.stateDir, free);
    const calls = ofType(readEvents(path.join(repo.stateDir, "events.jsonl")), "tool-call");
    assert.ok(calls.length >= 1, "the free run made calls");
    const clone = path.join(repo.root, "replay");
    git(repo.root, "clone", "-q", "--branch", "main", path.join(repo.root, "pristine"), clone);
    const stateDir = path.join(repo.root, "replay-state");
    const out = await runCli(["replay", repo.stateDir, "--workspace", clone, "--state-dir", stateDir, "--plain"]);
    const replayed = outcomeOf(clone, stateDir, out);
    console.log(
      `      free run: ${calls.length} calls (${calls.map((c) => c.tool).join(", ")}), ${recorded.board.length} board entries, exit ${recorded.exit}`,
    );
    assert.deepEqual(differences(recorded, replayed), []);
    // The same calls with the same results; a call cut where it ran past the agent's room is compared by its tool.
    // The trace holds each call's text, not its tokens: a model may sample a split the tokenizer would not make, so
    // the room a replayed agent has may differ by a few tokens (masked here; the board and report stay the same).
    const callsOf = (events: SwarmEvent[]) => {
      const results = new Map(ofType(events, "tool-result").map((r) => [r.callId, r.summary]));
      return ofType(events, "tool-call").map((c) => [
        c.agentId,
        c.tool,
        c.tool === "(malformed)" ? String(c.args).split(" ")[0] : c.args,
        results.get(c.callId)?.replace(/room for \d+ more tokens/, "room for N more tokens"),
      ]);
    };
    assert.deepEqual(
      callsOf(readEvents(path.join(stateDir, "events.jsonl"))),
      callsOf(readEvents(path.join(repo.stateDir, "events.jsonl"))),
      "the replay made the recorded calls, with the same results",
    );

    // The same trace with its worker's first call changed to a finding: the replay of that ends differently.
    const changedState = path.join(repo.root, "changed-recorded");
    cpSync(repo.stateDir, changedState, { recursive: true });
    const first = calls.find((c) => c.agentId === "agent-1");
    assert.ok(first, "the worker made a call");
    const changedCall = { kind: "FACT", text: "a recorded call changed before the replay" };
    writeFileSync(
      path.join(changedState, "events.jsonl"),
      readFileSync(path.join(repo.stateDir, "events.jsonl"), "utf8")
        .split("\n")
        .map((line) => {
          if (line.trim() === "") return line;
          const event = swarmEventSchema.parse(JSON.parse(line));
          return event.type === "tool-call" && event.callId === first.callId
            ? JSON.stringify({ ...event, tool: "post_finding", args: changedCall })
            : line;
        })
        .join("\n"),
    );
    const changedClone = path.join(repo.root, "changed-replay");
    git(repo.root, "clone", "-q", "--branch", "main", path.join(repo.root, "pristine"), changedClone);
    const changedOut = await runCli([
      ...["replay", changedState, "--workspace", changedClone],
      ...["--state-dir", path.join(repo.root, "changed-replay-state"), "--plain"],
    ]);
    const changed = outcomeOf(changedClone, path.join(repo.root, "changed-replay-state"), changedOut);
    const found = differences(recorded, changed);
    assert.ok(found.length > 0, "a replay of a trace with one call changed does not end the same");
    assert.ok(
      changed.board.includes(`FACT agent-1: ${changedCall.text}`),
      `the changed call's finding is on the replay's board:\n${changed.board.join("\n")}`,
    );
    console.log(`      one call changed: ${found.length} difference(s), first: ${found[0]}`);
  });
});
