import { strict as assert } from "assert";
import fc from "fast-check";
import type { BoardEntry, BoardEntryInput } from "../../../src/protocol/board";
import { boardEntryKinds } from "../../../src/protocol/board";
import { Board, canonicalJson, entryId, makeEntry } from "../../../src/core/board";
import { BoardLogCorruptError, decodeLog, encodeEntry } from "../../../src/core/boardLogCodec";
import { BoardQueryError, grepBoard, renderBoardHits } from "../../../src/core/grepBoard";
import { BoardFeed, isVisibleTo, type VisibilityRule } from "../../../src/core/visibility";

function entry(over: Partial<BoardEntryInput> & { id: string }): BoardEntry {
  return makeEntry({ kind: "OBSERVED", author: "a1", time: 1, text: "t", ...over });
}

const sample: BoardEntry[] = [
  entry({
    id: "1",
    kind: "FACT",
    author: "a1",
    text: "The lock in gitQueue.ts is never released",
    refs: [{ path: "src/workspace/gitQueue.ts", line: 42 }],
  }),
  entry({
    id: "2",
    kind: "FAIL",
    author: "a2",
    text: "Tried retrying the merge: still conflicts",
    scope: { paths: ["src/workspace"] },
  }),
  entry({
    id: "3",
    kind: "CLAIM",
    author: "a2",
    text: "fixing the parser",
    scope: { globs: ["src/core/*Parse.ts"], taskId: "t7" },
  }),
  entry({
    id: "4",
    kind: "OBSERVED",
    author: "a3",
    text: "README mentions an old flag",
    scope: { paths: ["README.md"] },
  }),
  entry({ id: "5", kind: "MESSAGE", author: "a1", text: "who owns the lock?", to: "swarm" }),
  entry({ id: "6", kind: "MESSAGE", author: "a1", text: "a2: please look", to: { agent: "a2" } }),
  entry({ id: "7", kind: "PATCH_SUMMARY", author: "syn", text: "report" }),
];

describe("board", () => {
  it("validates entries and fills defaults, naming bad fields", () => {
    const e = makeEntry({ id: "x", kind: "FACT", author: "a", time: 3, text: "ok" });
    assert.deepEqual(e.scope, { paths: [], globs: [] });
    assert.deepEqual(e.refs, []);
    assert.throws(() => makeEntry({ id: "x", kind: "GUESS" as "FACT", author: "a", time: 1, text: "" }), /kind/);
    assert.throws(
      () => makeEntry({ id: "x", kind: "FACT", author: "a", time: 1, text: "", scope: { paths: ["../etc/passwd"] } }),
      /scope\.paths\.0: expected a path inside the workspace/,
    );
    assert.throws(
      () => makeEntry({ id: "x", kind: "FACT", author: "a", time: 1, text: "", refs: [{ path: "/abs", line: 1 }] }),
      /not an absolute one/,
    );
    assert.equal(entryId("agent-3", 12), "agent-3-12");
  });

  it("applies each id once and reports a different entry under a known id", () => {
    const board = new Board();
    assert.equal(board.apply(sample[0]), "added");
    assert.equal(board.apply(sample[0]), "duplicate");
    assert.equal(board.apply({ ...sample[0], text: "other" }), "conflict");
    assert.equal(board.size, 1);
    assert.equal(board.get("1")?.text, sample[0].text);
    board.apply(sample[1]);
    assert.deepEqual(
      board.since(1).map((e) => e.id),
      ["2"],
    );
  });

  it("encodes one line per entry and decodes it back", () => {
    const text = sample.map(encodeEntry).join("");
    assert.equal(text.split("\n").length, sample.length + 1);
    const decoded = decodeLog(text);
    assert.deepEqual(decoded.entries, sample);
    assert.equal(decoded.keptText, text);
    assert.equal(decoded.torn, undefined);
  });

  it("cuts a torn last line (no line end, or a half-written line) and keeps everything before it", () => {
    const whole = sample.slice(0, 3).map(encodeEntry).join("");
    const torn = whole + encodeEntry(sample[3]).slice(0, 20);
    const decoded = decodeLog(torn);
    assert.equal(decoded.keptText, whole);
    assert.equal(decoded.entries.length, 3);
    assert.equal(decoded.torn?.line, 4);
    const garbledLast = whole + '{"id":"9","kind\n';
    assert.equal(decodeLog(garbledLast).keptText, whole);
  });

  it("refuses corruption before the last line, naming the line", () => {
    const bad = encodeEntry(sample[0]) + "not json\n" + encodeEntry(sample[1]);
    assert.throws(
      () => decodeLog(bad, "board.jsonl"),
      (e: unknown) => e instanceof BoardLogCorruptError && e.line === 2 && /board\.jsonl: line 2/.test(e.message),
    );
  });

  it("grep_board filters by regex, kind, author and path", () => {
    const ids = (q: Parameters<typeof grepBoard>[1]) => grepBoard(sample, q).map((e) => e.id);
    assert.deepEqual(ids({ regex: "lock" }), ["1", "5"]);
    assert.deepEqual(ids({ regex: "LOCK", caseSensitive: true }), []);
    assert.deepEqual(ids({ kind: "FAIL" }), ["2"]);
    assert.deepEqual(ids({ kind: ["FAIL", "CLAIM"] }), ["2", "3"]);
    assert.deepEqual(ids({ author: "a3" }), ["4"]);
    assert.deepEqual(ids({ path: "src/workspace/gitQueue.ts" }), ["1", "2"], "refs and a folder scope both count");
    assert.deepEqual(ids({ path: "src/core/recipeParse.ts" }), ["3"], "a glob scope counts");
    assert.deepEqual(
      ids({ path: "**/*.md" }),
      ["2", "4"],
      "a glob query (a .md file may live in the src/workspace folder)",
    );
    assert.deepEqual(ids({ path: "docs/**" }), []);
    assert.deepEqual(ids({ path: "src" }), ["1", "2", "3"], "a folder query covers what is below it");
    assert.deepEqual(ids({ regex: "lock", author: "a1", kind: "FACT" }), ["1"]);
    assert.deepEqual(ids({ limit: 2 }), ["6", "7"], "newest last, only the last `limit`");
    assert.throws(() => grepBoard(sample, { regex: "(" }), BoardQueryError);
    assert.match(
      renderBoardHits(grepBoard(sample, { kind: "FACT" })),
      /^\[1\] FACT a1: .*\(src\/workspace\/gitQueue\.ts:42\)$/,
    );
    assert.equal(renderBoardHits([]), "No board entries match.");
  });

  it("shared visibility shows every finding to everyone", () => {
    const rule: VisibilityRule = { visibility: "shared", synthesists: new Set(["syn"]) };
    const seen = sample.filter((e) => isVisibleTo(e, { agent: "a3", isSynthesist: false }, rule)).map((e) => e.id);
    assert.deepEqual(seen, ["1", "2", "3", "4", "5", "7"], "all but a direct message to someone else");
  });

  it("private pads keep findings with their author; claims, the synthesist's report and messages stay visible", () => {
    const rule: VisibilityRule = { visibility: "private-pads", synthesists: new Set(["syn"]) };
    const view = (agent: string, isSynthesist = false) =>
      sample.filter((e) => isVisibleTo(e, { agent, isSynthesist }, rule)).map((e) => e.id);
    assert.deepEqual(view("a3"), ["3", "4", "5", "7"]);
    assert.deepEqual(view("a2"), ["2", "3", "5", "6", "7"]);
    assert.deepEqual(view("syn", true), ["1", "2", "3", "4", "5", "7"], "the synthesist reads every pad");
  });

  it("a feed hands each newly visible entry to its reader once", () => {
    const feed = new BoardFeed(
      { agent: "a3", isSynthesist: false },
      { visibility: "private-pads", synthesists: new Set() },
    );
    assert.deepEqual(
      feed.next(sample.slice(0, 4)).map((e) => e.id),
      ["3", "4"],
    );
    assert.deepEqual(feed.next(sample.slice(0, 4)), []);
    assert.deepEqual(
      feed.next(sample).map((e) => e.id),
      ["5"],
    );
  });

  it("property: replaying a log (with repeats) gives the same board", () => {
    const entryArb = fc.record({
      id: fc.integer({ min: 0, max: 40 }).map((n) => `e${n}`),
      kind: fc.constantFrom(...boardEntryKinds),
      author: fc.constantFrom("a", "b"),
      time: fc.nat(),
      text: fc.string(),
      paths: fc.subarray(["src/a.ts", "b", "c/d"]),
    });
    fc.assert(
      fc.property(fc.array(entryArb, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 10 }), (raw, repeats) => {
        const entries = raw.map((r) =>
          makeEntry({
            id: r.id,
            kind: r.kind,
            author: r.author,
            time: r.time,
            text: r.text,
            scope: { paths: r.paths },
          }),
        );
        const original = Board.fromEntries(entries);
        const log = original.entries().map(encodeEntry).join("");
        // Replays: the log itself, the log twice, and the log with some of its own lines again at the end.
        const again = repeats
          .map((i) => original.entries()[i % Math.max(1, original.size)])
          .filter((e) => e !== undefined);
        for (const text of [log, log + log, log + again.map(encodeEntry).join("")]) {
          const replayed = Board.fromEntries(decodeLog(text).entries);
          assert.equal(canonicalJson(replayed.entries()), canonicalJson(original.entries()));
        }
      }),
      { numRuns: 200 },
    );
  });
});
