// Claims that bind, over boards as a swarm writes them: CLAIM and RELEASE entries of several agents, globs,
// folders, task-only claims, expiry and sub-agents, read back through ClaimTable.fromBoard like the worker does.
import { strict as assert } from "assert";
import type { BoardEntry, Scope } from "../../../src/protocol/board";
import { ClaimTable } from "../../../src/core/claims";
import { mergeRefusal, pathsClaimedByOthers, writeRefusal } from "../../../src/core/claimedPaths";

const leaseMs = 60_000;

function claim(id: string, author: string, scope: Partial<Scope>, text: string, time = 1_000): BoardEntry {
  return {
    id,
    kind: "CLAIM",
    author,
    time,
    scope: { paths: [], globs: [], ...scope },
    text,
    refs: [],
    leaseUntil: time + leaseMs,
  };
}

function release(id: string, of: BoardEntry, time = 2_000): BoardEntry {
  return { id, kind: "RELEASE", author: of.author, time, scope: of.scope, text: "finished", refs: [], releases: of.id };
}

/** A board of three agents: agent-1 a file, agent-2 a glob, agent-3 a task only, agent-4 a folder, released. */
const stats = claim("agent-1-2", "agent-1", { paths: ["src/stats.js"] }, "fix median");
const tests = claim("agent-2-1", "agent-2", { globs: ["test/**/*.test.js", "docs/{api,guide}.md"] }, "tests");
const task = claim("agent-3-1", "agent-3", { taskId: "todo-variance" }, "add variance");
const lib = claim("agent-4-1", "agent-4", { paths: ["lib/"] }, "lib cleanup");
const board: BoardEntry[] = [
  stats,
  {
    id: "agent-1-3",
    kind: "FACT",
    author: "agent-1",
    time: 1_100,
    scope: { paths: [], globs: [] },
    text: "x",
    refs: [],
  },
  tests,
  task,
  lib,
  release("agent-4-2", lib),
];

function check(agent: string, paths: string[], entries = board, now = 3_000, familyOf?: (a: string) => string) {
  const table = ClaimTable.fromBoard(entries, { leaseMs });
  const texts = new Map(entries.map((e) => [e.id, e.text]));
  return pathsClaimedByOthers({
    agent,
    paths,
    leases: table.active(now),
    claimText: (id) => texts.get(id),
    ...(familyOf ? { familyOf } : {}),
  });
}

const summary = (r: ReturnType<typeof check>) => r.map((c) => `${c.path} <- ${c.holder.agent}/${c.holder.claimId}`);

describe("claims that bind (pathsClaimedByOthers)", () => {
  it("refuses another agent's claimed file, in any spelling, naming the owner and its claim", () => {
    const blocked = check("agent-2", ["./src/stats.js", "src//stats.js", "src/./stats.js"]);
    assert.deepEqual(summary(blocked), ["src/stats.js <- agent-1/agent-1-2"]);
    assert.equal(blocked[0].claimText, "fix median");
  });

  it("lets the holder write its own claim, and anyone write files nobody claimed", () => {
    assert.deepEqual(check("agent-1", ["src/stats.js", "test/stats.test.js"]).length, 1);
    assert.deepEqual(check("agent-1", ["src/stats.js"]), []);
    assert.deepEqual(check("agent-3", ["src/mean.js", "README.md", "src/stats.js.bak", "src/stats"]), []);
  });

  it("binds by glob: nested test files and brace alternatives, not their neighbours", () => {
    const blocked = check("agent-1", ["test/a.test.js", "test/unit/deep/b.test.js", "docs/api.md", "docs/faq.md"]);
    assert.deepEqual(summary(blocked), [
      "test/a.test.js <- agent-2/agent-2-1",
      "test/unit/deep/b.test.js <- agent-2/agent-2-1",
      "docs/api.md <- agent-2/agent-2-1",
    ]);
    assert.deepEqual(check("agent-1", ["test/helpers.js", "test/a.test.ts"]), []);
  });

  it("checks nothing for a claim by task id only", () => {
    assert.deepEqual(check("agent-1", ["src/variance.js", "todo-variance"]), []);
  });

  it("frees a folder once its claim is released, and binds it before", () => {
    assert.deepEqual(check("agent-1", ["lib/x/y.js"]), []);
    const beforeRelease = board.slice(0, 5);
    assert.deepEqual(summary(check("agent-1", ["lib/x/y.js"], beforeRelease)), ["lib/x/y.js <- agent-4/agent-4-1"]);
  });

  it("frees a file once agent-1 releases it, and a lease that ran out binds nothing", () => {
    assert.deepEqual(check("agent-2", ["src/stats.js"], [...board, release("agent-1-4", stats)]), []);
    assert.deepEqual(check("agent-2", ["src/stats.js"], board, stats.time + leaseMs + 1), []);
  });

  it("lets a sub-agent write under its family's claim but not under another family's", () => {
    const family = (a: string) => (a === "agent-5" ? "agent-1" : a);
    assert.deepEqual(check("agent-5", ["src/stats.js"], board, 3_000, family), []);
    assert.equal(check("agent-5", ["test/a.test.js"], board, 3_000, family).length, 1);
  });

  it("reports each path once, holders from several agents in the order the paths came", () => {
    const blocked = check("agent-3", ["test/a.test.js", "src/stats.js", "test/a.test.js"]);
    assert.deepEqual(summary(blocked), ["test/a.test.js <- agent-2/agent-2-1", "src/stats.js <- agent-1/agent-1-2"]);
  });
});

describe("what a refused write or merge says", () => {
  it("a write names the file, the owner, its claim and what to do", () => {
    assert.equal(
      writeRefusal("edit_file", check("agent-2", ["src/stats.js"])),
      "Refused: edit_file src/stats.js: src/stats.js is claimed by agent-1 (claim agent-1-2: fix median); " +
        "claim another task, or send_message agent-1 to ask it to release.",
    );
  });

  it("a merge lists every file inside another's claim, with both owners", () => {
    const text = mergeRefusal(check("agent-3", ["src/stats.js", "src/mean.js", "test/x.test.js"]));
    assert.equal(
      text,
      "Not merged: your branch changes files inside another agent's claim: " +
        "src/stats.js (claimed by agent-1, claim agent-1-2: fix median); " +
        "test/x.test.js (claimed by agent-2, claim agent-2-1: tests). " +
        "Revert them in a new commit and merge the rest, or claim another task, " +
        "or send_message agent-1 or send_message agent-2 to ask them to release.",
    );
  });

  it("refuses to word a refusal of nothing", () => {
    assert.throws(() => writeRefusal("write_file", []), /at least one/);
    assert.throws(() => mergeRefusal([]), /at least one/);
  });
});
