// The user's shared worker (`swarmboard serve`, issue 26's first floor), as a real detached process on a real local
// socket: two clients attach, a swarm launched by one streams its events to both, a second swarm on the same model
// file reuses the model the first loaded (the server's own load count stays 1), and the front door holds: a wrong
// token, another version, a line that is not JSON, a request that fails its schema, a frame over the size limit, a
// client that vanishes mid-request (a launch too: its swarm runs to its end) and another user are each refused or
// survived, with the server still serving. Clients that attach while a swarm posts findings (a reloaded window,
// `mcp --server`) end with the launcher's board and token counts: no event missed between trace and stream, none twice.
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { connectToServer, type ServerConnection } from "../../src/cli/serverConnection";
import { serverStatusMethod, serverStopMethod, swarmFollowMethod } from "../../src/protocol/serverRpc";
import { listSwarmsMethod } from "../../src/protocol/swarmHistoryRpc";
import { startSwarmMethod, swarmEventsNotification } from "../../src/protocol/swarmRpc";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { thisMachinePaths } from "../../src/worker/server/serverFiles";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { makeSampleRepo, repoRoot, testRecipe, until } from "./swarmFixtures";
import type { SwarmViewState } from "../../src/core/swarmView";
import { caughtUpClient, foldInto } from "./caughtUpClient";

/** The version stamped into dist/ (tests compiled by tsc see "dev"): the server's socket and hello use it. */
const extensionVersion: string = JSON.parse(readFileSync(path.join(repoRoot(), "package.json"), "utf8")).version;

/** One raw line exchange on a fresh socket: what the server answered, and whether it closed the connection. */
function rawExchange(socketPath: string, lines: string[]): Promise<{ answers: unknown[]; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    const answers: unknown[] = [];
    let text = "";
    socket.setEncoding("utf8");
    socket.on("error", reject);
    socket.on("data", (chunk: string) => {
      text += chunk;
      for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n")) {
        answers.push(JSON.parse(text.slice(0, nl)));
        text = text.slice(nl + 1);
      }
    });
    socket.on("connect", () => socket.write(lines.map((l) => `${l}\n`).join("")));
    const settle = setTimeout(() => {
      socket.destroy();
      resolve({ answers, closed: false });
    }, 2_000);
    socket.on("close", () => {
      clearTimeout(settle);
      resolve({ answers, closed: true });
    });
  });
}

/** The response to request `id` among a raw exchange's answers (log notifications may come first). */
function responseTo(answers: unknown[], id: number): { ok?: boolean; error?: { code: string } } | undefined {
  return answers.find(
    (a) => (a as { kind?: string; id?: number }).kind === "response" && (a as { id: number }).id === id,
  ) as { ok?: boolean; error?: { code: string } } | undefined;
}

const hello = (token: string, version = extensionVersion) =>
  JSON.stringify({
    kind: "request",
    id: 0,
    method: "server/hello",
    params: { token, version, client: "test", pid: 1 },
  });

describe("the shared worker (swarmboard serve)", function () {
  let server: ChildProcess;
  let socketPath: string;
  const savedRuntimeDir = process.env.XDG_RUNTIME_DIR;
  const connections: ServerConnection[] = [];

  before(async function () {
    this.timeout(180_000); // the worker bundle loads node-llama-cpp's bindings first: tens of seconds on a busy machine
    const runtimeDir = mkdtempSync(path.join(os.tmpdir(), "sb-serve-"));
    process.env.XDG_RUNTIME_DIR = runtimeDir; // this process's clients find the same socket
    const script = path.join(repoRoot(), "dist", "worker", "main.js");
    assert.ok(existsSync(script), `${script} is missing: run npm run build first`);
    server = spawn(process.execPath, [script, "--serve", "--idle-minutes", "0"], {
      env: { ...process.env, XDG_RUNTIME_DIR: runtimeDir },
      stdio: ["ignore", "inherit", "inherit"],
    });
    socketPath = thisMachinePaths(extensionVersion).socket;
    await until(() => existsSync(socketPath), "the server's socket", 170_000);
  });

  after(() => {
    for (const c of connections.splice(0)) c.close();
    server.kill("SIGKILL");
    if (savedRuntimeDir === undefined) delete process.env.XDG_RUNTIME_DIR;
    else process.env.XDG_RUNTIME_DIR = savedRuntimeDir;
  });

  it("serves two clients one model: a swarm's events reach its launcher and its followers only, and a second swarm does not load it again", async function () {
    const [a, b] = [await connectToServer("test", extensionVersion), await connectToServer("test", extensionVersion)];
    connections.push(a, b);
    const seen: [SwarmEvent[], SwarmEvent[]] = [[], []];
    a.peer.onNotification(swarmEventsNotification, ({ events }) => seen[0].push(...events));
    b.peer.onNotification(swarmEventsNotification, ({ events }) => seen[1].push(...events));
    const repo = makeSampleRepo();
    const recipe = path.join(repo.root, "e2e.json");
    writeFileSync(recipe, JSON.stringify(testRecipe(1)));
    const finish = { tool: "finish", args: { summary: "-" } };
    const launch = (by: ServerConnection, stateDir: string) =>
      by.peer.request(startSwarmMethod, {
        goal: "Look at the stats module",
        recipe,
        modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
        workspace: repo.workspace,
        stateDir,
        threads: 1,
        policy: { allow: [...defaultPolicyRules.allow], ask: [], deny: [...defaultPolicyRules.deny] },
        script: {
          agents: {
            "agent-1": [{ tool: "post_finding", args: { kind: "OBSERVED", text: "median sorts in place" } }, finish],
            synthesist: [finish],
          },
        },
      });
    const ended = (events: SwarmEvent[], swarmId: string) =>
      events.some((e) => e.type === "swarm-ended" && e.swarmId === swarmId);

    const first = await launch(a, path.join(repo.root, "state-1"));
    // b shows it too (as a reloaded window does): it follows it; c does not, and gets none of its events.
    const c = await connectToServer("test", extensionVersion);
    connections.push(c);
    const unfollowed: SwarmEvent[] = [];
    c.peer.onNotification(swarmEventsNotification, ({ events }) => unfollowed.push(...events));
    const followed = await b.peer.request(swarmFollowMethod, { swarmIds: [first.swarmId] });
    assert.deepEqual(followed.following, [first.swarmId]);
    // Where its trace stood as b began to get its events (it may already have ended and closed: then none).
    assert.ok(Object.keys(followed.traceBytes ?? {}).every((id) => id === first.swarmId));
    await until(() => ended(seen[0], first.swarmId) && ended(seen[1], first.swarmId), "the first swarm's end at both");
    assert.ok(
      seen[1].some((e) => e.type === "board-entry" && e.swarmId === first.swarmId),
      "the client that did not launch it saw its finding",
    );
    // Its record is written just after the end event; the slot frees when the session has closed.
    let second: { swarmId: string } | undefined;
    for (let i = 0; second === undefined && i < 100; i++) {
      second = await launch(b, path.join(repo.root, "state-2")).catch(async (err: Error) => {
        if (!/swarm-running|running/.test(err.message)) throw err;
        await new Promise((r) => setTimeout(r, 200));
        return undefined;
      });
    }
    assert.ok(second !== undefined, "the second swarm launched");
    assert.deepEqual(unfollowed, [], "a client that follows no swarm gets no swarm's events");
    await until(() => ended(seen[1], second.swarmId), "the second swarm's end at the client that launched it");
    const status = await a.peer.request(serverStatusMethod, {});
    assert.equal(status.modelLoads, 1, "one model load for two swarms from two clients");
    assert.equal(status.clients.length, 3);
    assert.equal(status.pid, server.pid);
    const listed = await b.peer.request(listSwarmsMethod, { workspace: repo.workspace });
    assert.equal(listed.swarms.length, 2, "both swarms are recorded in the repository");
  });

  it("refuses a wrong token and another version, skips a line that is not JSON, and outlives a client that vanishes", async function () {
    this.timeout(60_000);
    const token = readFileSync(thisMachinePaths(extensionVersion).tokenFile, "utf8").trim();
    const wrong = await rawExchange(socketPath, [hello("0".repeat(token.length))]);
    assert.equal(responseTo(wrong.answers, 0)?.error?.code, "unauthorized");
    assert.ok(wrong.closed, "a wrong token's connection is closed");
    const old = await rawExchange(socketPath, [hello(token, "0.0.0-older")]);
    assert.equal(responseTo(old.answers, 0)?.error?.code, "version-mismatch");
    const before = await rawExchange(socketPath, [
      JSON.stringify({ kind: "request", id: 7, method: "server/status", params: {} }),
    ]);
    assert.equal(
      responseTo(before.answers, 7)?.error?.code,
      "method-not-found",
      "nothing but hello is served before hello",
    );
    const garbage = await rawExchange(socketPath, ["this is not json {", hello(token)]);
    assert.equal(responseTo(garbage.answers, 0)?.ok, true, "the connection went on after the bad line");

    // A client that asks and is gone before the answer: the server answers into nothing and goes on.
    const vanishing = net.connect(socketPath);
    await new Promise((resolve) => vanishing.once("connect", resolve));
    vanishing.write(
      `${hello(token)}\n${JSON.stringify({ kind: "request", id: 1, method: "server/status", params: {} })}\n`,
    );
    vanishing.destroy();
    const after = await connectToServer("test", extensionVersion);
    connections.push(after);
    const status = await after.peer.request(serverStatusMethod, {});
    assert.equal(status.pid, server.pid, "the same server still serves");
  });

  it("answers a frame that fails its schema and skips one that is no envelope, closes only an over-long frame's connection, and runs a swarm whose launcher vanished mid-start", async function () {
    this.timeout(120_000);
    const token = readFileSync(thisMachinePaths(extensionVersion).tokenFile, "utf8").trim();
    const status = (id: number) => JSON.stringify({ kind: "request", id, method: "server/status", params: {} });
    const bad = await rawExchange(socketPath, [
      hello(token),
      JSON.stringify({ kind: "request", id: 1, method: "swarm/start", params: { goal: 42 } }),
      JSON.stringify([1, 2, 3]),
      JSON.stringify({ kind: "nonsense", id: 2 }),
      status(3),
    ]);
    assert.equal(
      responseTo(bad.answers, 1)?.error?.code,
      "invalid-params",
      "a request that fails its schema is answered",
    );
    assert.equal(responseTo(bad.answers, 3)?.ok, true, "the connection serves on after frames that are no envelope");
    assert.ok(!bad.closed, "none of these closed the connection");

    // One line past the 64 MiB frame limit, never ended: the server closes that connection without buffering it all.
    const big = net.connect(socketPath);
    await new Promise((resolve) => big.once("connect", resolve));
    big.on("error", () => undefined);
    const closedBig = new Promise<void>((resolve) => big.once("close", () => resolve()));
    big.write(`${hello(token)}\n`);
    const chunk = "a".repeat(1024 * 1024);
    for (let i = 0; i < 66 && !big.destroyed; i++)
      if (!big.write(chunk)) await Promise.race([new Promise((resolve) => big.once("drain", resolve)), closedBig]);
    await closedBig;

    // A launcher that sends swarm/start and is gone before the answer: the swarm starts and runs without it.
    const repo = makeSampleRepo();
    const recipe = path.join(repo.root, "e2e.json");
    writeFileSync(recipe, JSON.stringify(testRecipe(1)));
    const vanishing = net.connect(socketPath);
    await new Promise((resolve) => vanishing.once("connect", resolve));
    const start = {
      goal: "Look at the stats module",
      recipe,
      modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
      workspace: repo.workspace,
      stateDir: path.join(repo.root, "state-orphan"),
      threads: 1,
      policy: { allow: [...defaultPolicyRules.allow], ask: [], deny: [...defaultPolicyRules.deny] },
      script: {
        agents: {
          "agent-1": [{ tool: "finish", args: { summary: "-" } }],
          synthesist: [{ tool: "finish", args: { summary: "-" } }],
        },
      },
    };
    vanishing.write(
      `${hello(token)}\n${JSON.stringify({ kind: "request", id: 1, method: "swarm/start", params: start })}\n`,
    );
    await new Promise((r) => setTimeout(r, 100));
    vanishing.destroy();
    const after = await connectToServer("test", extensionVersion);
    connections.push(after);
    let recorded = 0;
    await until(
      () => existsSync(path.join(repo.root, "state-orphan", "events.jsonl")),
      "the orphan swarm's trace",
      60_000,
    );
    for (let i = 0; i < 100 && recorded === 0; i++) {
      const { swarms } = await after.peer.request(listSwarmsMethod, { workspace: repo.workspace });
      recorded = swarms.filter((s) => s.outcome === "completed").length;
      if (recorded === 0) await new Promise((r) => setTimeout(r, 300));
    }
    assert.equal(recorded, 1, "the swarm whose launcher vanished ran to its end and was recorded completed");
    assert.equal((await after.peer.request(serverStatusMethod, {})).pid, server.pid, "the same server still serves");
  });

  it("catches up clients that attach while a swarm posts: each ends with every finding once and the launcher's tokens", async function () {
    this.timeout(300_000);
    const launcher = await connectToServer("test", extensionVersion);
    connections.push(launcher);
    const own = new Map<string, SwarmViewState>();
    launcher.peer.onNotification(swarmEventsNotification, ({ swarmId, events }) => foldInto(own, swarmId, events));
    const repo = makeSampleRepo();
    const recipe = path.join(repo.root, "e2e.json");
    writeFileSync(recipe, JSON.stringify(testRecipe(1)));
    const postCount = 8;
    // Thinking streams events every batch (100 ms) between the findings, so an attach lands amid a flow of them.
    const posts = Array.from({ length: postCount }, (_, i) => ({
      tool: "post_finding",
      think: "Reading the module again from the top, each function and what it returns on an empty list.",
      args: { kind: "OBSERVED", text: `attach observation ${i + 1}` },
    }));
    const finish = { tool: "finish", args: { summary: "-" } };
    const { swarmId } = await launcher.peer.request(startSwarmMethod, {
      goal: "Look at the stats module",
      recipe,
      modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
      workspace: repo.workspace,
      stateDir: path.join(repo.root, "state-attach"),
      threads: 1,
      policy: { allow: [...defaultPolicyRules.allow], ask: [], deny: [...defaultPolicyRules.deny] },
      script: { agents: { "agent-1": [...posts, finish], synthesist: [finish] } },
    });
    const posted = () => own.get(swarmId)?.entries.length ?? 0;
    const clients: Map<string, SwarmViewState>[] = [];
    for (const after of [1, 3, 5]) {
      await until(() => posted() >= after, `finding ${after} at the launcher`, 120_000);
      const { connection, views } = await caughtUpClient(extensionVersion, repo.workspace);
      connections.push(connection);
      assert.ok(views.has(swarmId), `the client attached after finding ${after} adopted the swarm`);
      clients.push(views);
    }
    const ended = (views: Map<string, SwarmViewState>) => views.get(swarmId)?.endedAt !== undefined;
    await until(() => ended(own) && clients.every(ended), "the swarm's end at the launcher and every client", 180_000);
    const board = readFileSync(path.join(repo.root, "state-attach", "board.jsonl"), "utf8")
      .trim()
      .split("\n");
    const ids = board.map((line) => (JSON.parse(line) as { id: string }).id);
    assert.equal(ids.length, postCount);
    const tokens = (views: Map<string, SwarmViewState>) => views.get(swarmId)?.agents.map((a) => [a.id, a.tokens]);
    for (const [i, views] of clients.entries()) {
      const view = views.get(swarmId);
      assert.deepEqual(view?.entries.map((e) => e.id).sort(), [...ids].sort(), `client ${i + 1}: every finding, once`);
      assert.deepEqual(tokens(views), tokens(own), `client ${i + 1}: the launcher's token counts (no event twice)`);
      assert.equal(view?.status, "completed");
    }
  });

  it("keeps other users out: its folder is 0700 and its socket 0600, and another uid cannot connect", function () {
    const paths = thisMachinePaths(extensionVersion);
    assert.equal(statSync(paths.dir).mode & 0o777, 0o700);
    assert.equal(statSync(paths.socket).mode & 0o777, 0o600);
    assert.equal(statSync(paths.tokenFile).mode & 0o777, 0o600);
    // Only root can become another uid (setpriv); as another user the modes checked above are what refuses one.
    if (process.getuid?.() !== 0) return;
    const probe = `require("net").connect(${JSON.stringify(paths.socket)}).on("connect",()=>{console.log("connected");process.exit(0)}).on("error",(e)=>{console.log(e.code);process.exit(0)})`;
    const other = spawnSync(
      "setpriv",
      ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, "-e", probe],
      {
        encoding: "utf8",
      },
    );
    assert.equal(other.status, 0, other.stderr);
    assert.equal(other.stdout.trim(), "EACCES", "uid 65534 is refused by the socket's folder");
  });

  it("drains on --stop while a swarm runs: no new swarm starts, and it exits once the swarm ended", async function () {
    const client = await connectToServer("test", extensionVersion);
    connections.push(client);
    const events: SwarmEvent[] = [];
    client.peer.onNotification(swarmEventsNotification, ({ events: batch }) => events.push(...batch));
    const repo = makeSampleRepo();
    const recipe = path.join(repo.root, "e2e.json");
    writeFileSync(recipe, JSON.stringify(testRecipe(1)));
    const posts = Array.from({ length: 30 }, (_, i) => ({
      tool: "post_finding",
      args: { kind: "OBSERVED", text: `seen ${i + 1}` },
    }));
    const finish = { tool: "finish", args: { summary: "-" } };
    const launch = (stateDir: string) =>
      client.peer.request(startSwarmMethod, {
        goal: "Look at the stats module",
        recipe,
        modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
        workspace: repo.workspace,
        stateDir,
        threads: 1,
        policy: { allow: [...defaultPolicyRules.allow], ask: [], deny: [...defaultPolicyRules.deny] },
        script: { agents: { "agent-1": [...posts, finish], synthesist: [finish] } },
      });
    const { swarmId } = await launch(path.join(repo.root, "state-running"));
    await until(
      () => events.some((e) => e.type === "board-entry" && e.swarmId === swarmId),
      "the swarm's first finding",
    );
    const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
    assert.deepEqual(await client.peer.request(serverStopMethod, {}), { stopping: "after-swarms" });
    await assert.rejects(launch(path.join(repo.root, "state-refused")), /worker-stopping|stopping after its running/);
    await until(() => events.some((e) => e.type === "swarm-ended" && e.swarmId === swarmId), "the swarm's end");
    assert.equal(await exited, 0, "the server exited by itself after its last swarm");
    const ended = events.find((e) => e.type === "swarm-ended" && e.swarmId === swarmId);
    assert.equal(ended?.type === "swarm-ended" && ended.outcome, "completed");
  });
});
