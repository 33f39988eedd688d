// The standing swarm on a recorded stream (real CLI `swarmboard watch`, real runtime, the tiny ChatML model, forced
// tokens): 320 triggers, 20 of them real work. Every real task gets exactly one worker, every follow-up reaches its
// owner without a router decision, noise and duplicates are dropped by rules, the router calls no workspace tool
// (a forced read_file is refused), and a SIGKILL in the middle of the stream loses nothing: `watch --resume` reads
// the trigger log back, the router gets what it had not decided, and the stream read again takes only what is new.
// A follow-up typed on stdin (/trigger) while its owner works reaches it as a message, with no router decision.
// In the watch's own process (--no-server, the process killed), and on the shared server (the server SIGKILLed,
// `watch --resume` starting a new one). The server variant once failed now and then (issue 26): the killed server,
// orphaned when its first watch exited before reaping it, stayed a zombie until init reaped it (1.5-2 s here), and
// the new server took its start lock for a live one's and exited; processAlive now counts a zombie as gone. A wait
// that fails prints the trigger log's and the swarm's last lines, what the watch said and the server folder's log,
// and stops at once when the watch exited.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { swarmEventSchema, type SwarmEvent } from "../../src/protocol/swarmEvents";
import { triggerLogLineSchema, type TriggerLogLine } from "../../src/protocol/triggers";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { ownServerFolder, serverPidsIn } from "../serverFolder";
import { makeSampleRepo, ofType, repoRoot } from "./swarmFixtures";
import { recordedStream, streamFileText } from "./triggerStream";

const cli = path.join(repoRoot(), "dist", "cli", "main.js");
const tasks = 20;
const firstHalf = 10;

function logLines(stateDir: string): TriggerLogLine[] {
  const file = path.join(stateDir, "triggers.jsonl");
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, "utf8").split("\n");
  return lines
    .slice(0, -1)
    .filter((l) => l.trim() !== "")
    .map((l) => triggerLogLineSchema.parse(JSON.parse(l)));
}

function events(file: string): SwarmEvent[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => swarmEventSchema.parse(JSON.parse(l)));
}

/** Waits until a line of the trigger log satisfies `match`. */
async function waitForLog(
  stateDir: string,
  what: string,
  match: (line: TriggerLogLine) => boolean,
  said: () => string,
  exited: () => boolean,
): Promise<void> {
  const deadline = Date.now() + 5 * 60_000;
  while (!logLines(stateDir).some(match)) {
    const gone = exited();
    if (gone || Date.now() > deadline) {
      const tail = logLines(stateDir)
        .slice(-12)
        .map((l) => JSON.stringify(l));
      const file = path.join(stateDir, "events.jsonl");
      const last = existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").slice(-15) : [];
      throw new Error(
        `${gone ? "the watch exited" : "gave up"} waiting for ${what} in the trigger log; its last lines:\n${tail.join("\n")}\n` +
          `the swarm's last events:\n${last.join("\n")}\nthe watch said:\n${said()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The server folder's files, and the text of its logs and lock. */
function serverFolderText(runtimeDir: string): string {
  const dir = path.join(runtimeDir, "swarmboard");
  if (!existsSync(dir)) return `no server folder ${dir}`;
  const names = readdirSync(dir);
  const shown = names.filter((n) => /\.(log|lock|json)$/.test(n));
  return [
    `the server folder holds: ${names.join(", ")}`,
    ...shown.map((n) => `${n}:\n${readFileSync(path.join(dir, n), "utf8").slice(-4000)}`),
  ].join("\n");
}

const ended = (lines: readonly TriggerLogLine[]) => lines.filter((l) => l.kind === "worker" && l.state === "ended");

/** Where the swarm stands, and how the first watch is cut short: what runs its swarm is SIGKILLed. */
interface Place {
  /** --no-server, or nothing (the server: watch's default). */
  readonly flags: readonly string[];
  readonly kill: (watch: ChildProcess) => void;
  /** The first watch's exit: null when it was killed itself, 1 (failed) when its server was. */
  readonly killedExit: number | null;
  /** What the first watch said when it was cut short, and what the resumed one says at its start. */
  readonly said?: { readonly killed: RegExp; readonly resumed: RegExp };
  /** More to print when a wait gives up (the server's folder and log). */
  readonly diagnose?: () => string;
}

/** Spawns `watch` and resolves once `until` holds of the trigger log (polled), or rejects when the child exits first. */
function watchUntil(place: Place, args: string[], stateDir: string, until: (lines: TriggerLogLine[]) => boolean) {
  // Neither the environment's server choice nor a flag but the place's.
  const env = { ...process.env };
  delete env.SWARMBOARD_SERVER;
  const child = spawn(process.execPath, [cli, "watch", ...place.flags, ...args], {
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const reached = new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (until(logLines(stateDir))) {
        clearInterval(timer);
        resolve();
      }
    }, 200);
    void exit.then((code) => {
      clearInterval(timer);
      reject(new Error(`watch exited (${code}) before it got there:\n${out}`));
    });
  });
  return { child: child as ChildProcess, reached, exit, output: () => out };
}

const assign = (id: string) => ({ tool: "assign_task", args: { trigger: id, task: `do the work of ${id}` } });
const wait = { tool: "wait_for_triggers", args: {} };

const shown = "gives each real task one worker, follow-ups to their owners, drops noise by rule, and loses nothing";

describe("a standing swarm replays a recorded trigger stream across a SIGKILL (real CLI watch --no-server, tiny ChatML model)", function () {
  this.timeout(10 * 60_000);
  it(shown, () =>
    replayAcrossKill({ flags: ["--no-server"], kill: (watch) => watch.kill("SIGKILL"), killedExit: null }),
  );
});

describe("a standing swarm replays a recorded trigger stream across a SIGKILL of its server (real CLI watch, tiny ChatML model)", function () {
  this.timeout(10 * 60_000);
  const folder = ownServerFolder();
  it(shown, () =>
    replayAcrossKill({
      flags: [],
      kill: () => {
        for (const pid of serverPidsIn(folder.dir)) process.kill(pid, "SIGKILL");
      },
      killedExit: 1,
      said: {
        killed: /the server closed before swarm \S+ ended; it is interrupted/,
        resumed: /^swarm \S+: resumed; state dir .* \(on the server, /m,
      },
      diagnose: () => serverFolderText(folder.dir),
    }),
  );
});

async function replayAcrossKill(place: Place): Promise<void> {
  const repo = makeSampleRepo();
  const stream = recordedStream(tasks);
  assert.equal(stream.length, 320);
  const part = stream.filter((t) => Number(/-(\d+)/.exec(t.id)![1]) <= firstHalf);
  writeFileSync(path.join(repo.root, "part1.jsonl"), streamFileText(part));
  writeFileSync(path.join(repo.root, "stream.jsonl"), streamFileText(stream));
  const reals = stream.filter((t) => t.kind === "real").map((t) => t.id);
  // Run 1: the router reads the first half's ten real triggers in one batch, assigns five, then waits (killed).
  writeFileSync(
    path.join(repo.root, "script1.json"),
    JSON.stringify({ agents: { "agent-1": [wait, ...reals.slice(0, 5).map(assign), wait] } }),
  );
  // Run 2: a workspace call forced on the router is refused; it then gets the five it never decided and the ten new.
  const forced = { tool: "read_file", args: { path: "src/stats.js" } };
  writeFileSync(
    path.join(repo.root, "script2.json"),
    JSON.stringify({
      agents: {
        "agent-1": [forced, wait, ...reals.slice(5).map(assign), wait],
        // real-6's worker asks the person and waits: it is working when the live follow-up comes.
        "agent-10": [{ tool: "ask_user", args: { question: "Is task 6 about the parser?" } }],
      },
    }),
  );
  const common = [
    ...["--model", sharedModelPath("tiny-random-qwen2-chatml.gguf"), "--threads", "1", "--kv-cells", "16384"],
    ...["--state-dir", repo.stateDir, "--plain"],
  ];

  const first = watchUntil(
    place,
    [...common, "--workspace", repo.workspace, "--triggers", path.join(repo.root, "part1.jsonl")].concat([
      "--script",
      path.join(repo.root, "script1.json"),
    ]),
    repo.stateDir,
    (lines) => ended(lines).length >= 5,
  );
  await first.reached;
  place.kill(first.child);
  assert.equal(await first.exit, place.killedExit, `the first run was cut short:\n${first.output()}`);
  if (place.said) assert.match(first.output(), place.said.killed);
  const beforeKill = logLines(repo.stateDir);
  assert.equal(beforeKill.filter((l) => l.kind === "trigger").length, part.length, "the whole first half was logged");

  const second = watchUntil(
    place,
    ["--resume", ...common, "--triggers", path.join(repo.root, "stream.jsonl")].concat([
      "--script",
      path.join(repo.root, "script2.json"),
      "--ask-user-timeout",
      "120",
    ]),
    repo.stateDir,
    (lines) => ended(lines).length >= tasks,
  );
  const said = () => second.output() + (place.diagnose ? `\n${place.diagnose()}` : "");
  let secondExited = false;
  void second.exit.then(() => (secondExited = true));
  const exited = () => secondExited;
  void second.reached.catch(() => undefined); // awaited below; a wait that fails first says why itself
  const waitFor = (what: string, match: (line: TriggerLogLine) => boolean) =>
    waitForLog(repo.stateDir, what, match, said, exited);
  await waitFor("real-6's worker", (l) => l.kind === "worker" && l.thread === "real-6");
  // A moment for agent-10 to join the board and ask; until then the follow-up would wait on its thread (parked).
  await waitFor("a later worker", (l) => l.kind === "worker" && l.agentId === "agent-12");
  const live = {
    id: "live-1",
    source: "diagnostic",
    severity: "error",
    path: "src/task6.js",
    line: 9,
    text: "still wrong",
  };
  second.child.stdin!.write(`/trigger ${JSON.stringify(live)}\n`);
  await waitFor("the live follow-up", (l) => l.kind === "trigger" && l.trigger.id === "live-1");
  second.child.stdin!.write("@answer question-1 yes\n");
  await second.reached;
  second.child.kill("SIGINT");
  assert.equal(await second.exit, 4, `the watch stopped on Ctrl-C:\n${second.output()}`);
  if (place.said) assert.match(second.output(), place.said.resumed);

  const log = logLines(repo.stateDir);
  for (const line of beforeKill)
    assert.ok(
      log.some((l) => JSON.stringify(l) === JSON.stringify(line)),
      "every line acknowledged before the kill is kept",
    );
  const taken = log.flatMap((l) => (l.kind === "trigger" ? [l] : []));
  assert.deepEqual(
    taken.map((l) => l.trigger.id).sort(),
    [...stream.map((t) => t.id), "live-1"].sort(),
    "each of the 320 triggers (and the live one) was taken exactly once over both runs",
  );
  const routeOf = new Map(taken.map((l) => [l.trigger.id, l.route]));
  const decisions = log.flatMap((l) => (l.kind === "decision" ? [l] : []));
  const workers = log.flatMap((l) => (l.kind === "worker" && l.state === "started" ? [l] : []));
  const ownerOf = new Map(workers.map((w) => [w.thread, w.agentId]));

  for (const id of reals) {
    assert.deepEqual(routeOf.get(id), { route: "router" }, `${id} went to the router`);
    assert.equal(
      decisions.filter((d) => d.triggerId === id && d.decision.action === "assign").length,
      1,
      `${id}: one assignment`,
    );
    assert.equal(workers.filter((w) => w.thread === id).length, 1, `${id}: exactly one worker`);
  }
  assert.equal(new Set(workers.map((w) => w.agentId)).size, tasks, "no worker id was reused across the restart");
  const delivered = log.flatMap((l) => (l.kind === "delivered" ? [l] : []));
  for (const t of stream) {
    const route = routeOf.get(t.id)!;
    if (t.kind === "follow-up") {
      assert.ok(route.route === "parked" || route.route === "direct", `${t.id} took the fast path (${route.route})`);
      const to = route.route === "direct" ? route.agentId : delivered.find((d) => d.triggerId === t.id)?.agentId;
      assert.equal(to, ownerOf.get(t.of!), `${t.id} reached the owner of ${t.of}`);
      const brief = readFileSync(path.join(repo.stateDir, "briefs", `${to}.txt`), "utf8");
      assert.ok(route.route === "direct" || brief.includes(`[${t.id}]`), `${t.id} is in its owner's brief`);
    }
    if (t.kind === "noise")
      assert.ok(route.route === "dropped" && route.rule !== "duplicate", `${t.id} dropped by a rule`);
    if (t.kind === "duplicate")
      assert.ok(route.route === "dropped" && route.rule === "duplicate", `${t.id} a duplicate`);
    if (t.kind !== "real") assert.ok(!decisions.some((d) => d.triggerId === t.id), `${t.id}: no router decision`);
  }

  const all = events(path.join(repo.stateDir, "events.jsonl"));
  const routerCalls = ofType(all, "tool-call").filter((e) => e.agentId === "agent-1");
  assert.deepEqual([...new Set(routerCalls.map((c) => c.tool))].sort(), [
    "assign_task",
    "read_file",
    "wait_for_triggers",
  ]);
  const refused = ofType(all, "tool-result").filter((e) => e.agentId === "agent-1" && !e.ok);
  assert.equal(refused.length, 1, "only the forced workspace call failed");
  assert.match(refused[0]!.summary, /no tool "read_file" among your tools/);
  const batches = ofType(all, "tool-result")
    .filter((e) => e.agentId === "agent-1" && /^\d+ trigger\(s\)/.test(e.summary))
    .map((e) => Number(/^(\d+)/.exec(e.summary)![1]));
  assert.deepEqual(batches.slice(0, 2), [10, 15], "queued triggers reached the router together, one result each");
  const last = ofType(all, "trigger").at(-1)!;
  assert.deepEqual(last.counts, { dropped: 20 * 12, direct: 20 * 3 + 1, router: 20 });
  const liveRoute = routeOf.get("live-1")!;
  const liveTo =
    liveRoute.route === "direct" ? liveRoute.agentId : delivered.find((d) => d.triggerId === "live-1")?.agentId;
  assert.equal(liveTo, ownerOf.get("real-6"), "the live follow-up reached real-6's worker");
  const message = ofType(all, "board-entry").find(
    (e) => e.entry.kind === "MESSAGE" && e.entry.text.includes("[live-1]"),
  );
  assert.deepEqual(message?.entry.to, { agent: ownerOf.get("real-6") }, "as a message");
  assert.ok(!decisions.some((d) => d.triggerId === "live-1"), "without a router decision");
}
