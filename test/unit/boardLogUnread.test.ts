// Done-when (issue 30): a complete last board line of a kind this version does not know (a newer version's
// entry) survives a SIGKILL and a resume, with a notice; only a last line that is not JSON is cut, and that is
// told too. The kept line stays in the file through later appends and reopenings.
import { strict as assert } from "assert";
import { spawn } from "child_process";
import { existsSync, promises as fs } from "fs";
import * as os from "os";
import * as path from "path";
import type { BoardEntry } from "../../src/protocol/board";
import { makeEntry } from "../../src/core/board";
import { decodeLog, encodeEntry } from "../../src/core/boardLogCodec";
import { BoardLogFile } from "../../src/workspace/boardLog";

const child = path.resolve(__dirname, "../fixtures/board/crashChild.js");
const entry = (id: string): BoardEntry => makeEntry({ id, kind: "FACT", author: "a", time: 1, text: `text ${id}` });
/** An entry a newer Swarmboard might write: a kind this version does not know, a field it has never seen. */
const newer = JSON.stringify({ id: "n1", kind: "VERDICT", author: "b", time: 2, text: "from the future", score: 3 });

/** Runs the crash child on `file` (it opens the log, as a resume does, and posts) and kills it after 3 posts. */
function postThenKill(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let stderr = "";
    const guard = setTimeout(() => proc.kill("SIGKILL"), 30_000);
    proc.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      if (out.split("\n").filter((l) => l !== "" && l !== "ready").length >= 4) proc.kill("SIGKILL");
    });
    proc.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    proc.on("error", reject);
    proc.on("close", (_code, signal) => {
      clearTimeout(guard);
      if (signal !== "SIGKILL") reject(new Error(`the crash child ended on its own: ${stderr}`));
      else
        resolve(
          out
            .split("\n")
            .slice(0, -1)
            .filter((l) => l !== "ready"),
        );
    });
    proc.stdin.write(`${file} r\n`);
  });
}

describe("board log keeps what it cannot read", function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "swarmboard-unread-"));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("keeps a complete last line of an unknown kind through a SIGKILL and a resume, with a notice", async () => {
    assert.ok(existsSync(child), `The crash child ${child} is missing: run \`npm run compile:tests\` first.`);
    const file = path.join(dir, "board.jsonl");
    const before = encodeEntry(entry("1")) + encodeEntry(entry("2")) + newer + "\n";
    await fs.writeFile(file, before);
    const acked = await postThenKill(file);
    const after = await fs.readFile(file, "utf8");
    assert.ok(
      after.startsWith(before),
      `the unknown line was cut on resume: the file no longer begins with the ${before.length} bytes it held`,
    );

    const log = await BoardLogFile.open(file);
    const ids = log.entries().map((e) => e.id);
    for (const id of ["1", "2", ...acked]) assert.ok(ids.includes(id), `${id} is missing`);
    assert.deepEqual(
      log.unread.map((u) => u.line),
      [3],
    );
    assert.match(log.unread[0]!.reason, /kind "VERDICT", which this version does not know/);
    assert.match(log.notice() ?? "", /1 line\(s\) this version cannot read were kept in the file and skipped \(line 3/);
    await log.append(entry("3"));
    await log.close();
    const text = await fs.readFile(file, "utf8");
    assert.ok(text.includes(`${newer}\n`), "the unknown line is still in the file after more appends");
    assert.deepEqual(decodeLog(text).unread, [{ line: 3, reason: log.unread[0]!.reason }]);
  });

  it("keeps and ends a complete last line that lost only its line end, and says so", async () => {
    const file = path.join(dir, "board.jsonl");
    await fs.writeFile(file, encodeEntry(entry("1")) + newer);
    const log = await BoardLogFile.open(file);
    assert.deepEqual(log.repair, {
      droppedBytes: 0,
      line: 2,
      reason: "a complete last line without its line end",
    });
    assert.match(log.notice() ?? "", /was whole but lacked its line end.*kept and ended.*cannot read/);
    await log.append(entry("2"));
    await log.close();
    assert.equal(await fs.readFile(file, "utf8"), encodeEntry(entry("1")) + newer + "\n" + encodeEntry(entry("2")));
  });

  it("cuts only a last line that is not JSON, and says how much it cut", async () => {
    const file = path.join(dir, "board.jsonl");
    const whole = encodeEntry(entry("1"));
    const torn = '{"id":"2","kind":"FA\n';
    await fs.writeFile(file, whole + torn);
    const log = await BoardLogFile.open(file);
    await log.close();
    assert.equal(log.repair?.droppedBytes, torn.length);
    assert.match(log.notice() ?? "", /line 2\) was cut by a crash \(not JSON.*21 byte\(s\)/);
    assert.equal(await fs.readFile(file, "utf8"), whole);
  });

  it("says nothing when the log was whole", async () => {
    const file = path.join(dir, "board.jsonl");
    await fs.writeFile(file, encodeEntry(entry("1")));
    const log = await BoardLogFile.open(file);
    assert.equal(log.notice(), undefined);
    await log.close();
  });
});
