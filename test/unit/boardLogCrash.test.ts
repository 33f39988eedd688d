// Crash test of the board log: a child process posts findings and is killed with SIGKILL at 200 random
// moments (some while it opens and repairs the previous run's tail, most while posting). After each
// kill the log reopens, every entry the child acknowledged (printed after fsync) is there, and the file parses.
import { strict as assert } from "assert";
import { spawn, type ChildProcessByStdio } from "child_process";
import { existsSync, promises as fs } from "fs";
import * as os from "os";
import * as path from "path";
import type { Readable, Writable } from "stream";
import { decodeLog } from "../../src/core/boardLogCodec";
import { BoardLogFile } from "../../src/workspace/boardLog";

const child = path.resolve(__dirname, "../fixtures/board/crashChild.js");
const kills = 200;
/** A fresh log every so many runs keeps reopen cost flat while still testing repair on top of repair. */
const runsPerLog = 5;

/** mulberry32: a seeded generator, so a failing run can be repeated with its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface RunResult {
  readonly acked: string[];
  readonly stderr: string;
  readonly signal: NodeJS.Signals | null;
  readonly code: number | null;
}

type Child = ChildProcessByStdio<Writable, Readable, Readable>;

function startChild(): Child {
  return spawn(process.execPath, [child], { stdio: ["pipe", "pipe", "pipe"] });
}

/**
 * Tells a started child which log to post to, and kills it `delayMs` after its "ready" (while posting),
 * or `delayMs` after the go line (while it opens and repairs the log).
 */
function runAndKill(proc: Child, file: string, run: number, delayMs: number, beforeReady: boolean): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    let out = "";
    let stderr = "";
    let timer: NodeJS.Timeout | undefined;
    const kill = () => proc.kill("SIGKILL");
    // A child that never says "ready" (broken build, stuck start-up) must fail the test, not hang it.
    const guard = setTimeout(() => {
      kill();
      reject(
        new Error(
          `crash child of run ${run} neither got ready nor died within 20 s; stdout: ${out.slice(-200)} stderr: ${stderr.slice(-500)}`,
        ),
      );
    }, 20_000);
    proc.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      if (!beforeReady && timer === undefined && (out + chunk).includes("ready\n")) timer = setTimeout(kill, delayMs);
      out += chunk;
    });
    proc.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    proc.on("error", reject);
    proc.on("close", (code, signal) => {
      if (timer !== undefined) clearTimeout(timer);
      clearTimeout(guard);
      // Only whole lines are acknowledgements: the kill may cut the last one.
      const lines = out.split("\n").slice(0, -1);
      resolve({ acked: lines.filter((l) => l !== "ready"), stderr, signal, code });
    });
    proc.stdin.write(`${file} ${run}\n`);
    if (beforeReady) timer = setTimeout(kill, delayMs);
  });
}

describe("board log under SIGKILL", function () {
  this.timeout(240_000);

  it(`keeps every acknowledged entry and a parseable file across ${kills} kills`, async () => {
    assert.ok(existsSync(child), `The crash child ${child} is missing: run \`npm run compile:tests\` first.`);
    const seed = Number(process.env.SWARMBOARD_CRASH_SEED ?? Date.now() % 1_000_000);
    const rand = random(seed);
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "swarmboard-crash-"));
    let file = "";
    let acked = new Set<string>();
    let repairs = 0;
    let killedPosting = 0;
    let next = startChild();
    try {
      for (let run = 0; run < kills; run++) {
        if (run % runsPerLog === 0) {
          file = path.join(dir, `board-${run / runsPerLog}.jsonl`);
          acked = new Set();
        }
        const beforeReady = rand() < 0.15;
        const delay = Math.floor(rand() * (beforeReady ? 15 : 40));
        const current = next;
        // The next child loads its modules while this one runs; it touches the log only after its go line.
        next = startChild();
        const result = await runAndKill(current, file, run, delay, beforeReady);
        const context = `run ${run}, seed ${seed}, delay ${delay} ms${beforeReady ? " after the go line" : " after ready"}`;
        assert.equal(
          result.signal,
          "SIGKILL",
          `the child must die by the kill, not exit on its own (${context}): code ${result.code}, ${result.stderr}`,
        );
        if (result.acked.length > 0) killedPosting++;
        for (const id of result.acked) acked.add(id);
        if (!existsSync(file)) {
          assert.equal(acked.size, 0, `log missing though entries were acknowledged (${context})`);
          continue;
        }
        const log = await BoardLogFile.open(file);
        if (log.repair !== undefined) repairs++;
        const present = new Set(log.entries().map((e) => e.id));
        await log.close();
        for (const id of acked)
          assert.ok(present.has(id), `acknowledged entry ${id} is missing after the kill (${context})`);
        const decoded = decodeLog(await fs.readFile(file, "utf8"), file);
        assert.equal(decoded.torn, undefined, `after reopening, the file parses to its end (${context})`);
        assert.equal(decoded.entries.length, present.size);
      }
    } finally {
      next.kill("SIGKILL");
      await fs.rm(dir, { recursive: true, force: true });
    }
    // Not assertions on chance; printed so that a reader sees what the run exercised.
    console.log(`      seed ${seed}: ${kills} kills, ${killedPosting} while posting, ${repairs} torn tails repaired`);
    assert.ok(
      killedPosting > kills / 4,
      `most kills must land while posting (only ${killedPosting} of ${kills}); the child may be failing to start`,
    );
  });
});
