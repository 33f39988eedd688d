// The MCP server and a line over its 10 MiB limit: the built CLI's `swarmboard mcp` answers it with a JSON-RPC
// error carrying the request's id and keeps serving (the next request is answered); the guard in front of the
// SDK's transport passes whole lines and never holds more than the limit.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { McpLineGuard, tooLargeAnswer } from "../../../src/cli/mcpLineGuard";
import { cleanRepo, removeDir, tempDir } from "../workspace/gitFixture";

const cli = path.resolve(__dirname, "../../../../dist/cli/main.js");

function through(guard: McpLineGuard, chunks: string[]): Promise<string> {
  return new Promise((resolve) => {
    let out = "";
    guard.on("data", (d: Buffer) => (out += d.toString()));
    guard.on("end", () => resolve(out));
    for (const c of chunks) guard.write(Buffer.from(c));
    guard.end();
  });
}

describe("cli: the MCP server answers a line over its limit", function () {
  this.timeout(120_000);

  it("the guard passes whole lines and answers one over the limit with its id", async () => {
    const answers: string[] = [];
    const guard = new McpLineGuard((a) => answers.push(a), 64);
    const big = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"goal":"${"x".repeat(200)}"}}\n`;
    const out = await through(guard, ['{"id":1}\n{"i', 'd":2}\n', big.slice(0, 50), big.slice(50), '{"id":3}\n']);
    assert.equal(out, '{"id":1}\n{"id":2}\n{"id":3}\n');
    assert.equal(answers.length, 1);
    const answer = JSON.parse(answers[0]!) as { id: unknown; error: { code: number; message: string } };
    assert.equal(answer.id, 7);
    assert.equal(answer.error.code, -32600);
    assert.equal(
      JSON.parse(tooLargeAnswer('{"method":"x","params":{"id":5', 64)).id,
      null,
      "an id inside params is not the request's",
    );
    assert.equal(JSON.parse(tooLargeAnswer('{"jsonrpc":"2.0","id":"a-1","method', 64)).id, "a-1");
  });

  it("swarmboard mcp answers an 11 MiB line with an error and then the next request", async () => {
    assert.ok(existsSync(cli), `${cli} is missing: run npm run build first`);
    const repo = cleanRepo();
    const stateRoot = path.join(tempDir("mcp-state"), "root");
    try {
      // In process: the guard is this process's stdin, and a unit test starts no shared server.
      const child = spawn(
        process.execPath,
        [cli, "mcp", "--no-server", "--workspace", repo, "--state-root", stateRoot],
        {
          stdio: ["pipe", "pipe", "pipe"],
        },
      );
      let stdout = "";
      let stderr = "";
      child.stdin.on("error", () => {}); // a server that closed its input is seen in the assertions below
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const answered = new Promise<void>((resolve) =>
        child.stdout.on("data", (d: Buffer) => {
          stdout += d.toString();
          if (stdout.includes('"id":8')) resolve();
        }),
      );
      const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
      const goal = "y".repeat(11 * 1024 * 1024);
      child.stdin.write(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 7,
          method: "tools/call",
          params: { name: "swarmboard_launch", arguments: { goal } },
        }) + "\n",
      );
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 8, method: "ping" }) + "\n");
      const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
      await Promise.race([answered, closed]);
      child.stdin.end();
      const status = await closed;
      clearTimeout(killer);
      const lines = stdout
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as { id: number; error?: { code: number; message: string }; result?: unknown });
      const tooBig = lines.find((l) => l.id === 7);
      assert.ok(tooBig?.error, `an error for request 7:\n${stdout.slice(0, 2000)}\n${stderr}`);
      assert.equal(tooBig.error.code, -32600);
      assert.match(tooBig.error.message, /over 10 MiB, the limit of one line on stdio, and was dropped/);
      assert.deepEqual(lines.find((l) => l.id === 8)?.result, {}, "the server still answers");
      assert.equal(status, 0, stderr);
    } finally {
      removeDir(repo);
      removeDir(path.dirname(stateRoot));
    }
  });
});
