// `swarmboard model pull` against a local server on loopback, as a user runs it (the built CLI): an unknown
// name lists the catalogue, a refused or silent connection is an error within --timeout that says so, and a
// file that is not a GGUF is refused and never left in the model folder. The downloaded-file check itself is
// tested on a 12-byte file.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { modelCatalogue } from "../../../src/core/modelCatalogue";
import { checkDownloadedGguf } from "../../../src/worker/modelDownloadCheck";
import { removeDir, tempDir } from "../workspace/gitFixture";

const cli = path.resolve(__dirname, "../../../../dist/cli/main.js");

/** The CLI as a child process (not spawnSync: the test's own server must keep answering while it runs). */
function runCli(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  assert.ok(existsSync(cli), `${cli} is missing: run npm run build first`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("close", (status) => {
      clearTimeout(killer);
      resolve({ status, stdout, stderr });
    });
  });
}

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

describe("cli: model pull refuses what is not a model and gives up on a dead connection", function () {
  this.timeout(120_000);
  let dir = "";
  const servers: net.Server[] = [];
  const sockets: net.Socket[] = [];
  beforeEach(() => (dir = tempDir("pull")));
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.destroy();
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
    removeDir(dir);
  });

  it("an unknown name lists the catalogue's names (not 'Invalid URL')", async () => {
    const out = await runCli("model", "pull", "qwen-9000", "--dir", dir);
    assert.equal(out.status, 2, out.stderr);
    assert.match(out.stderr, /"qwen-9000" is not a model in the catalogue \(/);
    for (const m of modelCatalogue) assert.ok(out.stderr.includes(m.id), m.id);
    assert.doesNotMatch(out.stderr, /Invalid URL/);
    assert.deepEqual(readdirSync(dir), []);
  });

  it("a refused connection is an error that says so", async () => {
    const server = net.createServer();
    const port = await listen(server);
    await new Promise((r) => server.close(r)); // nothing listens there now
    const out = await runCli("model", "pull", `http://127.0.0.1:${port}/m.gguf`, "--dir", dir, "--timeout", "5");
    assert.equal(out.status, 1, out.stderr);
    assert.match(out.stderr, /m\.gguf: the connection was refused \(127\.0\.0\.1:\d+\)/);
    assert.deepEqual(readdirSync(dir), []);
  });

  it("a server that accepts and never answers is given up after --timeout, with the timeout said", async () => {
    const server = net.createServer((socket) => sockets.push(socket));
    servers.push(server);
    const port = await listen(server);
    const out = await runCli("model", "pull", `http://127.0.0.1:${port}/m.gguf`, "--dir", dir, "--timeout", "2");
    assert.equal(out.status, 1, out.stderr);
    assert.match(out.stderr, /no answer from 127\.0\.0\.1:\d+ in 2 s \(--timeout 2\): the connection stalled/);
    assert.deepEqual(readdirSync(dir), []);
  });

  it("a 12-byte file that is not a GGUF is refused and not left as a model", async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/octet-stream", "Content-Length": "12" });
      res.end("hello world\n");
    });
    servers.push(server);
    const port = await listen(server);
    const out = await runCli("model", "pull", `http://127.0.0.1:${port}/tiny.gguf`, "--dir", dir, "--timeout", "5");
    assert.equal(out.status, 1, out.stderr);
    assert.match(out.stderr, /tiny\.gguf is not a GGUF model: it starts with "hello wo", not "GGUF"/);
    assert.equal(out.stdout, "", "no path is reported");
    assert.deepEqual(readdirSync(dir), []);
  });

  it("a file that starts like a GGUF is downloaded and its path printed", async () => {
    const body = Buffer.concat([Buffer.from("GGUF\u0003\u0000\u0000\u0000"), Buffer.alloc(4088, 1)]);
    const server = http.createServer((req, res) => {
      res.writeHead(200, { "Content-Type": "application/octet-stream", "Content-Length": String(body.length) });
      res.end(req.method === "HEAD" ? undefined : body);
    });
    servers.push(server);
    const port = await listen(server);
    const out = await runCli("model", "pull", `http://127.0.0.1:${port}/ok.gguf`, "--dir", dir, "--timeout", "10");
    assert.equal(out.status, 0, out.stderr);
    const file = out.stdout.trim();
    assert.equal(path.dirname(file), dir);
    assert.deepEqual(readFileSync(file), body);
  });

  it("a download that stalls after its first bytes is given up after --timeout (the downloader itself)", async () => {
    const server = http.createServer((req, res) => {
      res.writeHead(200, { "Content-Type": "application/octet-stream", "Content-Length": "1000000" });
      if (req.method === "HEAD") return res.end();
      res.write(Buffer.concat([Buffer.from("GGUF\u0003\u0000\u0000\u0000"), Buffer.alloc(4088)]));
      sockets.push(req.socket); // then nothing more: the connection stays open and silent
    });
    servers.push(server);
    const port = await listen(server);
    const out = await runCli("model", "pull", `http://127.0.0.1:${port}/slow.gguf`, "--dir", dir, "--timeout", "3");
    assert.equal(out.status, 1, out.stderr);
    assert.match(out.stderr, /The download of .*slow\.gguf stalled: no data for 3 s/);
    assert.equal(out.stdout, "", "no path is reported");
  });

  it("a downloaded file is checked for the GGUF magic and a plausible size, and removed when it fails", async () => {
    const file = path.join(dir, "model.gguf");
    writeFileSync(file, "hello world\n");
    await assert.rejects(checkDownloadedGguf(file), /not a GGUF model \(it starts with "hello wo", not "GGUF"\)/);
    assert.equal(existsSync(file), false, "the file is removed");
    writeFileSync(file, "GGUF\u0003\u0000\u0000\u0000");
    await assert.rejects(checkDownloadedGguf(file), /it is 8 bytes, shorter than a GGUF header/);
    writeFileSync(file, Buffer.concat([Buffer.from("GGUF\u0003\u0000\u0000\u0000"), Buffer.alloc(1000)]));
    await assert.rejects(checkDownloadedGguf(file, 1_000_000), /it is 1008 bytes where about 1000000 were expected/);
    writeFileSync(file, Buffer.concat([Buffer.from("GGUF\u0003\u0000\u0000\u0000"), Buffer.alloc(1000)]));
    await checkDownloadedGguf(file, 1500);
    assert.ok(existsSync(file));
  });
});
