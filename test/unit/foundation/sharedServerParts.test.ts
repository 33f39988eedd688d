// The pure parts of the shared worker: line framing over a stream (split chunks, a line that is not JSON, a frame
// over the limit), where the socket lives on each platform, and the hub that serves every client's connection.
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { z } from "zod";
import { defineMethod, defineNotification } from "../../../src/protocol/envelope";
import { pingMethod, workerLogNotification } from "../../../src/protocol/workerRpc";
import { LineTransport, type TextStream } from "../../../src/core/rpc/lineTransport";
import { PeerHub } from "../../../src/core/rpc/peerHub";
import { RpcPeer } from "../../../src/core/rpc/rpcPeer";
import { createInProcessTransportPair } from "../../../src/core/rpc/transport";
import { maxSocketPathChars, serverPaths, type MachineFacts } from "../../../src/core/server/serverPaths";

class FakeStream extends EventEmitter implements TextStream {
  written: string[] = [];
  destroyed = false;
  write(text: string): boolean {
    this.written.push(text);
    return true;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

describe("line framing (LineTransport)", () => {
  it("joins a message split across chunks, reads several in one chunk, and writes one line per message", () => {
    const stream = new FakeStream();
    const violations: string[] = [];
    const transport = new LineTransport(stream, { onViolation: (r) => violations.push(r) });
    const got: unknown[] = [];
    transport.onMessage((m) => got.push(m));
    stream.emit("data", '{"a":1,"text":"sp');
    stream.emit("data", 'lit é"}\n{"b":2}\n{"c"');
    stream.emit("data", ":3}\n");
    assert.deepEqual(got, [{ a: 1, text: "split é" }, { b: 2 }, { c: 3 }]);
    transport.send({ kind: "notification", method: "x", params: { s: "line\nbreak" } });
    assert.deepEqual(stream.written, ['{"kind":"notification","method":"x","params":{"s":"line\\nbreak"}}\n']);
    assert.deepEqual(violations, []);
  });

  it("skips a line that is not JSON and goes on with the next", () => {
    const stream = new FakeStream();
    const violations: string[] = [];
    const transport = new LineTransport(stream, { onViolation: (r) => violations.push(r) });
    const got: unknown[] = [];
    transport.onMessage((m) => got.push(m));
    stream.emit("data", 'not json\n{"ok":true}\n');
    assert.deepEqual(got, [{ ok: true }]);
    assert.equal(violations.length, 1);
    assert.match(violations[0]!, /not JSON/);
    assert.equal(stream.destroyed, false);
  });

  it("closes the stream on a frame over the limit, without buffering it whole, and says the limit", () => {
    const stream = new FakeStream();
    const violations: string[] = [];
    const transport = new LineTransport(stream, { onViolation: (r) => violations.push(r), maxFrameChars: 1000 });
    const got: unknown[] = [];
    transport.onMessage((m) => got.push(m));
    stream.emit("data", `{"big":"${"x".repeat(600)}`);
    assert.equal(stream.destroyed, false, "under the limit so far");
    stream.emit("data", "y".repeat(600));
    assert.equal(stream.destroyed, true);
    assert.match(violations[0]!, /limit of 1000/);
    stream.emit("data", '"}\n{"after":1}\n');
    assert.deepEqual(got, [], "nothing is read after the close");
  });
});

describe("where the shared worker listens (serverPaths)", () => {
  const linux: MachineFacts = {
    platform: "linux",
    uid: 1000,
    userName: "ada",
    runtimeDir: "/run/user/1000",
    homeDir: "/home/ada",
    tmpDir: "/tmp",
  };

  it("uses XDG_RUNTIME_DIR on Linux, one socket per version, token, info and log beside it", () => {
    assert.deepEqual(serverPaths(linux, "0.1.0"), {
      dir: "/run/user/1000/swarmboard",
      socket: "/run/user/1000/swarmboard/worker-0.1.0.sock",
      tokenFile: "/run/user/1000/swarmboard/token",
      infoFile: "/run/user/1000/swarmboard/server-0.1.0.json",
      logFile: "/run/user/1000/swarmboard/server-0.1.0.log",
    });
    assert.notEqual(serverPaths(linux, "0.2.0").socket, serverPaths(linux, "0.1.0").socket);
  });

  it("falls back to the cache folder, and to a uid folder in tmp when the path would be too long for a socket", () => {
    const noXdg = { ...linux, runtimeDir: undefined };
    assert.equal(serverPaths(noXdg, "0.1.0").socket, "/home/ada/.cache/swarmboard/server/worker-0.1.0.sock");
    const deep = { ...noXdg, homeDir: `/home/${"d".repeat(90)}` };
    const paths = serverPaths(deep, "0.1.0");
    assert.equal(paths.dir, "/tmp/swarmboard-1000");
    assert.ok(paths.socket.length <= maxSocketPathChars);
  });

  it("names a per-user pipe on Windows and keeps odd characters out of names", () => {
    const win: MachineFacts = {
      ...linux,
      platform: "win32",
      uid: -1,
      userName: "Ada Lovelace",
      homeDir: "C:\\Users\\ada",
      runtimeDir: undefined,
    };
    const paths = serverPaths(win, "0.1.0+build/7");
    assert.equal(paths.socket, "\\\\.\\pipe\\swarmboard-Ada_Lovelace-0.1.0_build_7");
    assert.equal(paths.tokenFile, "C:\\Users\\ada\\.swarmboard\\server\\token");
    assert.equal(paths.logFile, "C:\\Users\\ada\\.swarmboard\\server\\server-0.1.0_build_7.log");
  });
});

describe("every client as one peer (PeerHub)", () => {
  function client(hub: PeerHub) {
    const [here, there] = createInProcessTransportPair();
    const server = new RpcPeer(here);
    const peer = new RpcPeer(there);
    return { peer, attach: () => hub.attach(server) };
  }

  it("answers a method on clients attached before and after it was registered, and notifies all of them", async () => {
    const hub = new PeerHub();
    const early = client(hub);
    early.attach();
    hub.handle(pingMethod, ({ nonce }) => ({ nonce, version: "t", pid: 1, node: "v" }));
    const late = client(hub);
    late.attach();
    assert.equal((await early.peer.request(pingMethod, { nonce: "a" })).nonce, "a");
    assert.equal((await late.peer.request(pingMethod, { nonce: "b" })).nonce, "b");
    const heard: string[] = [];
    for (const [name, c] of [
      ["early", early],
      ["late", late],
    ] as const)
      c.peer.onNotification(workerLogNotification, () => heard.push(name));
    hub.notify(workerLogNotification, { level: "info", message: "hi" });
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(heard.sort(), ["early", "late"]);
  });

  it("sends a topic's notifications only to the clients that follow it: the launcher, and those that asked", async () => {
    const launch = defineMethod("t/launch", z.object({}), z.object({ swarmId: z.string() }));
    const follow = defineMethod(
      "t/follow",
      z.object({ ids: z.array(z.string()) }),
      z.object({ following: z.array(z.string()) }),
    );
    const events = defineNotification("t/events", z.object({ swarmId: z.string() }));
    const hub = new PeerHub({
      topicOf: (method, params) => (method === events.method ? (params as { swarmId: string }).swarmId : undefined),
      followsAfter: (method, result) =>
        method === launch.method ? (result as { swarmId: string }).swarmId : undefined,
    });
    hub.handle(launch, () => ({ swarmId: "s1" }));
    hub.handleFollow(
      follow,
      ({ ids }) => ids,
      (following) => ({ following }),
    );
    const [launcher, follower, other] = [client(hub), client(hub), client(hub)];
    for (const c of [launcher, follower, other]) c.attach();
    const heard: string[] = [];
    for (const [name, c] of [
      ["launcher", launcher],
      ["follower", follower],
      ["other", other],
    ] as const) {
      c.peer.onNotification(events, ({ swarmId }) => heard.push(`${name}:${swarmId}`));
      c.peer.onNotification(workerLogNotification, () => heard.push(`${name}:log`));
    }
    await launcher.peer.request(launch, {});
    assert.deepEqual(await follower.peer.request(follow, { ids: ["s1"] }), { following: ["s1"] });
    hub.notify(events, { swarmId: "s1" });
    hub.notify(events, { swarmId: "s2" });
    hub.notify(workerLogNotification, { level: "info", message: "to all" });
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(heard.sort(), ["follower:log", "follower:s1", "launcher:log", "launcher:s1", "other:log"]);
  });

  it("detaches one client without touching the others", async () => {
    const hub = new PeerHub();
    hub.handle(pingMethod, ({ nonce }) => ({ nonce, version: "t", pid: 1, node: "v" }));
    const gone = client(hub);
    const stays = client(hub);
    const detach = gone.attach();
    stays.attach();
    detach.dispose();
    assert.equal(hub.size, 1);
    await assert.rejects(gone.peer.request(pingMethod, { nonce: "x" }), /method-not-found/);
    assert.equal((await stays.peer.request(pingMethod, { nonce: "y" })).nonce, "y");
  });
});
