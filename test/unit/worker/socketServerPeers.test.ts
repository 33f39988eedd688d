// The shared server's third lock, on real Unix sockets: the kernel's word on who connected (SO_PEERCRED), and a
// client of another uid refused even when it holds the token and the folder's modes were loosened to let it in.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { PeerHub } from "../../../src/core/rpc/peerHub";
import { readPeerCredentials } from "../../../src/worker/server/peerCredentials";
import { SocketServer } from "../../../src/worker/server/socketServer";

const token = "a".repeat(64);
const version = "9.9.9-test";

/** A client in its own process (as `asUid` through setpriv when given): sends one hello line, prints the answer. */
function helloFromProcess(socketPath: string, asUid?: number): Promise<{ code: number | null; out: string }> {
  const hello = { kind: "request", id: 1, method: "server/hello", params: { token, version, client: "test", pid: 1 } };
  const script =
    `const c=require("net").connect(${JSON.stringify(socketPath)});` +
    `c.on("connect",()=>c.write(${JSON.stringify(JSON.stringify(hello) + "\n")}));` +
    `let b="";c.on("data",d=>{b+=d;const i=b.indexOf("\\n");if(i>=0){console.log(b.slice(0,i));process.exit(0)}});` +
    `c.on("error",e=>{console.log("error "+e.code);process.exit(0)});c.on("close",()=>{console.log("closed");process.exit(0)})`;
  const [command, args] =
    asUid === undefined
      ? [process.execPath, ["-e", script]]
      : ["setpriv", [`--reuid=${asUid}`, `--regid=${asUid}`, "--clear-groups", process.execPath, "-e", script]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out: out.trim() }));
  });
}

describe("the shared server's peer check (real Unix sockets, SO_PEERCRED)", function () {
  this.timeout(30_000);
  let dir: string;
  let server: SocketServer;
  const logged: string[] = [];

  beforeEach(async function () {
    // As root, under /tmp itself (1777): uid 65534 must be able to walk to the socket, and TMPDIR may sit in a
    // private folder (the fresh-machine run's is under a 0700 HOME-like tree, where it got EACCES at the door).
    const base = process.getuid?.() === 0 && existsSync("/tmp") ? "/tmp" : os.tmpdir();
    dir = mkdtempSync(path.join(base, "swarmboard-peers-"));
    logged.length = 0;
    server = new SocketServer({
      socketPath: path.join(dir, "server.sock"),
      token,
      version,
      hub: new PeerHub(),
      log: (level, message) => logged.push(`${level}: ${message}`),
      onClientsChanged: () => {},
    });
    await server.listen();
  });

  afterEach(function () {
    server.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads the connecting process's pid and uid from the kernel", async function () {
    if (process.platform !== "linux") this.skip();
    const socketPath = path.join(dir, "probe.sock");
    const accepted = new Promise<net.Socket>((resolve) => {
      const probe = net.createServer(resolve).listen(socketPath, () => net.connect(socketPath));
      after(() => probe.close());
    });
    const socket = await accepted;
    const credentials = await readPeerCredentials(socket);
    socket.destroy();
    assert.deepEqual(credentials, {
      known: true,
      pid: process.pid,
      uid: process.getuid?.(),
      gid: process.getgid?.(),
    });
  });

  it("attaches a client of its own uid and lists it with the uid the kernel gave", async function () {
    const answer = await helloFromProcess(path.join(dir, "server.sock"));
    const response = JSON.parse(answer.out) as { ok: boolean; result?: { clientId: number } };
    assert.equal(response.ok, true, answer.out);
    assert.match(logged.join("\n"), new RegExp(`client 1 attached \\(test, pid 1, uid ${process.getuid?.()}\\)`));
  });

  it("refuses a client of another uid that holds the token, with the folder's modes loosened to let it in", async function () {
    // Only root can become another uid; as another user the folder's 0700 is what keeps others out (sharedServer).
    if (process.getuid?.() !== 0) this.skip();
    chmodSync(dir, 0o777);
    chmodSync(path.join(dir, "server.sock"), 0o666);
    const answer = await helloFromProcess(path.join(dir, "server.sock"), 65534);
    assert.equal(answer.code, 0, answer.out);
    assert.doesNotMatch(answer.out, /^error /, "uid 65534 reached the socket (else the test proves nothing)");
    const response = JSON.parse(answer.out) as { ok: boolean; error?: { code: string; message: string } };
    assert.equal(response.ok, false, answer.out);
    assert.equal(response.error?.code, "unauthorized");
    assert.match(
      response.error?.message ?? "",
      /runs as uid 0 and serves only that user; this client runs as uid 65534/,
    );
    assert.match(logged.join("\n"), /refused a client running as uid 65534/);
    assert.deepEqual(server.clients, [], "the refused client is not listed");
    // The server goes on serving its own user.
    const own = await helloFromProcess(path.join(dir, "server.sock"));
    assert.equal((JSON.parse(own.out) as { ok: boolean }).ok, true, own.out);
  });
});
