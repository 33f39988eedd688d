// The wait for a server this client started (src/core/server/startedServer.ts), on a fake clock: it connects once the
// server listens; a server that exits 0 (another one won the start lock) is waited past; one that fails or is killed
// ends the wait at once with its log's last lines; one that never listens ends it at the limit. The real CLI with a
// server that cannot start is in test/swarm/serverStartFailed.test.ts.
import assert from "node:assert/strict";
import {
  awaitStartedServer,
  ServerStartError,
  type ServerExit,
  type ServerWait,
} from "../../../src/core/server/startedServer";

interface Scene {
  /** The poll (1, 2, ...) from which a connection succeeds; never when undefined. */
  listensAt?: number;
  /** The poll from which the started server has exited, and how. */
  exitsAt?: { poll: number; exit: ServerExit };
  log?: string;
}

function waitOn(scene: Scene): { wait: ServerWait<string>; polls: () => number } {
  let polls = 0;
  let clock = 0;
  const wait: ServerWait<string> = {
    started: {
      pid: 4242,
      exit: () => (scene.exitsAt && polls >= scene.exitsAt.poll ? scene.exitsAt.exit : undefined),
      logSince: () => scene.log ?? "",
    },
    connect: async () => (scene.listensAt !== undefined && polls >= scene.listensAt ? "connection" : undefined),
    socket: "/run/user/1000/swarmboard/worker-1.0.0.sock",
    logFile: "/run/user/1000/swarmboard/server-1.0.0.log",
    limitMs: 10_000,
    pollMs: 250,
    now: () => clock,
    sleep: async (ms) => {
      clock += ms;
      polls++;
    },
  };
  return { wait, polls: () => polls };
}

/** The wait's error, which it must end with. */
async function failure(wait: ServerWait<string>): Promise<ServerStartError> {
  const error = await awaitStartedServer(wait).then(
    () => assert.fail("the wait connected to a server that never listened"),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ServerStartError, String(error));
  return error;
}

describe("waiting for a server this client started", () => {
  it("connects once the server listens", async () => {
    const { wait, polls } = waitOn({ listensAt: 3 });
    assert.equal(await awaitStartedServer(wait), "connection");
    assert.equal(polls(), 3);
  });

  it("waits past a server that exited 0 because another one holds the start lock, and connects to that one", async () => {
    const { wait, polls } = waitOn({ exitsAt: { poll: 1, exit: { code: 0, signal: null } }, listensAt: 6 });
    assert.equal(await awaitStartedServer(wait), "connection");
    assert.equal(polls(), 6);
  });

  it("stops at once when the server exits with an error, saying its code and its log's last 12 lines", async () => {
    const log = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n") + "\nswarmboard: EACCES on token\n";
    const { wait, polls } = waitOn({ exitsAt: { poll: 2, exit: { code: 1, signal: null } }, log });
    const error = await awaitStartedServer(wait).then(
      () => assert.fail("the wait connected to a server that exited"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ServerStartError);
    assert.equal(polls(), 2, "no poll after the exit was seen");
    assert.match(error.message, /^The shared Swarmboard server started here \(pid 4242\) exited with code 1 before it/);
    assert.match(error.message, /listened on \/run\/user\/1000\/swarmboard\/worker-1\.0\.0\.sock\./);
    assert.match(error.message, /The last lines of its log:\n {2}line 10\n[^]*\n {2}swarmboard: EACCES on token\n/);
    assert.doesNotMatch(error.message, /line 9\n/);
    assert.match(error.message, /Its whole log: \/run\/user\/1000\/swarmboard\/server-1\.0\.0\.log\./);
    assert.match(error.message, /--no-server.*swarmboard\.sharedWorker off/);
    assert.equal(error.headline, "its server exited with code 1 at its start: swarmboard: EACCES on token");
  });

  it("says a server killed by a signal (SIGILL: a runtime this CPU cannot run) and one that wrote nothing", async () => {
    const { wait } = waitOn({ exitsAt: { poll: 1, exit: { code: null, signal: "SIGILL" } } });
    const error = await failure(wait);
    assert.match(error.message, /was killed by SIGILL before it listened[^]*It wrote nothing to its log/);
    assert.equal(error.headline, "its server was killed by SIGILL at its start");
  });

  it("gives up at the limit on a server that runs and never listens, saying it still runs", async () => {
    const { wait, polls } = waitOn({ log: "loading the runtime\n" });
    const error = await failure(wait);
    assert.match(
      error.message,
      /did not listen on \S+ within 10 s and still runs\. The last lines of its log:\n {2}loading the runtime\n/,
    );
    assert.equal(error.headline, "its server did not listen within 10 s: loading the runtime");
    assert.equal(polls(), 41, "it polled every 250 ms until past the limit");
  });
});
