import { strict as assert } from "assert";
import { promises as fs } from "fs";
import * as os from "os";
import * as path from "path";
import fc from "fast-check";
import type { BoardEntry } from "../../src/protocol/board";
import { Board, canonicalJson, makeEntry } from "../../src/core/board";
import { BoardLogCorruptError, encodeEntry } from "../../src/core/boardLogCodec";
import { BoardLogFile } from "../../src/workspace/boardLog";

const entry = (id: string, text = `text ${id}`): BoardEntry =>
  makeEntry({ id, kind: "FACT", author: "a", time: 1, text });

describe("board log file", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "swarmboard-boardlog-"));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("creates the file and its folder, appends one line per entry and reads them back", async () => {
    const file = path.join(dir, "swarm", "board.jsonl");
    const log = await BoardLogFile.open(file);
    assert.equal(await log.append(entry("1")), "posted");
    assert.equal(await log.append(entry("2")), "posted");
    await log.close();
    assert.equal(await fs.readFile(file, "utf8"), encodeEntry(entry("1")) + encodeEntry(entry("2")));
    const again = await BoardLogFile.open(file);
    assert.deepEqual(again.entries(), [entry("1"), entry("2")]);
    assert.equal(again.repair, undefined);
    await again.close();
  });

  it("does not write an id twice, across reopenings too", async () => {
    const file = path.join(dir, "board.jsonl");
    const log = await BoardLogFile.open(file);
    await log.append(entry("1"));
    assert.equal(await log.append(entry("1")), "duplicate");
    await log.close();
    const again = await BoardLogFile.open(file);
    assert.equal(await again.append(entry("1")), "duplicate");
    await again.close();
    assert.equal((await fs.readFile(file, "utf8")).split("\n").length, 2);
  });

  it("serialises concurrent appends: every line whole, every id once", async () => {
    const file = path.join(dir, "board.jsonl");
    const log = await BoardLogFile.open(file);
    const results = await Promise.all(
      [...Array(40).keys()].map((i) => log.append(entry(String(i % 30), "x".repeat(i * 100)))),
    );
    assert.equal(results.filter((r) => r === "posted").length, 30);
    await log.close();
    const reopened = await BoardLogFile.open(file);
    assert.equal(reopened.entries().length, 30);
    await reopened.close();
  });

  it("cuts a torn last line on reopen, keeps everything before it and appends after it", async () => {
    const file = path.join(dir, "board.jsonl");
    const whole = encodeEntry(entry("1")) + encodeEntry(entry("2"));
    const tornLine = encodeEntry(entry("3")).slice(0, 25);
    await fs.writeFile(file, whole + tornLine);
    const log = await BoardLogFile.open(file);
    assert.deepEqual(
      log.entries().map((e) => e.id),
      ["1", "2"],
    );
    assert.deepEqual(log.repair, {
      droppedBytes: Buffer.byteLength(tornLine),
      line: 3,
      reason: "no line end (torn write)",
    });
    assert.equal(await fs.readFile(file, "utf8"), whole, "the torn bytes are gone from the file");
    await log.append(entry("3"));
    await log.close();
    assert.equal(await fs.readFile(file, "utf8"), whole + encodeEntry(entry("3")));
  });

  it("refuses a log damaged before its last line, naming the file and the line", async () => {
    const file = path.join(dir, "board.jsonl");
    await fs.writeFile(file, encodeEntry(entry("1")) + "{oops}\n" + encodeEntry(entry("2")));
    await assert.rejects(
      BoardLogFile.open(file),
      (e: unknown) => e instanceof BoardLogCorruptError && e.line === 2 && e.message.includes(file),
    );
  });

  it("refuses to post after close", async () => {
    const log = await BoardLogFile.open(path.join(dir, "board.jsonl"));
    await log.close();
    await assert.rejects(log.append(entry("1")), /is closed; entry 1 was not posted/);
  });

  it("property: replaying a log through the file gives the same board", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ id: fc.integer({ min: 0, max: 15 }), text: fc.string({ maxLength: 40 }) }), {
          maxLength: 20,
        }),
        async (raw) => {
          const file = path.join(dir, `replay-${run++}.jsonl`);
          const entries = raw.map((r) => entry(`e${r.id}`, r.text));
          const log = await BoardLogFile.open(file);
          for (const e of entries) await log.append(e);
          await log.close();
          // Replay the whole history into the reopened log: nothing changes.
          const again = await BoardLogFile.open(file);
          for (const e of entries) assert.equal(await again.append(e), "duplicate");
          await again.close();
          const reopened = await BoardLogFile.open(file);
          assert.equal(
            canonicalJson(Board.fromEntries(reopened.entries()).entries()),
            canonicalJson(Board.fromEntries(entries).entries()),
          );
          await reopened.close();
        },
      ),
      { numRuns: 40 },
    );
  });
});
