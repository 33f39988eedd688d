// `swarmboard mcp` against the MCP SDK's own client over stdio: the client lists the eight tools, launches a
// scripted swarm (stories260K, a real git repository with an AGENTS.md), reads its findings and status as
// resources, stops it, and gets tool errors that name the field for bad arguments. Needs `npm run build`.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { TurnScript } from "../../src/protocol/turnScript";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { git, makeSampleRepo, repoRoot } from "./swarmFixtures";

const cli = path.join(repoRoot(), "dist/cli/main.js");

function script(): TurnScript {
  const reading = Array.from({ length: 200 }, () => ({ tool: "grep_board", args: { kind: "FACT" } }));
  const agent = (n: number) => [
    {
      tool: "post_finding",
      args: {
        kind: "FACT",
        text: `agent-${n}: median lives in src/stats.js`,
        refs: [{ path: "src/stats.js", line: 9 }],
      },
    },
    ...reading,
  ];
  return {
    agents: { "agent-1": agent(1), "agent-2": agent(2), synthesist: [{ tool: "finish", args: { summary: "x" } }] },
  };
}

type ToolResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };
const textOf = (r: unknown) => (r as ToolResult).content.map((c) => c.text ?? "").join("");

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, limitMs = 500_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe("swarmboard mcp (the SDK's client over stdio)", function () {
  let client: Client;
  let stderr = "";
  let swarmId = "";

  before(async function () {
    assert.ok(existsSync(cli), `${cli} is missing: run \`npm run build\` first`);
    const repo = makeSampleRepo();
    writeFileSync(path.join(repo.workspace, "AGENTS.md"), "- Run `npm test` before you merge.\n");
    git(repo.workspace, "add", "AGENTS.md");
    git(repo.workspace, "-c", "user.name=U", "-c", "user.email=u@example.invalid", "commit", "-qm", "rules");
    const scriptFile = path.join(mkdtempSync(path.join(os.tmpdir(), "swarmboard-mcp-")), "script.json");
    writeFileSync(scriptFile, JSON.stringify(script()));
    // Threads, pool, script and state root are what a test needs; a user's configuration needs only the model.
    const args = [
      cli,
      "mcp",
      "--no-server",
      "--model",
      sharedModelPath("stories260K.gguf"),
      "--workspace",
      repo.workspace,
    ];
    args.push("--threads", "1", "--kv-cells", "8192", "--script", scriptFile, "--state-root", repo.stateDir);
    const transport = new StdioClientTransport({ command: process.execPath, args, stderr: "pipe" });
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    client = new Client({ name: "swarmboard-test", version: "0.0.0" });
    await client.connect(transport);
  });

  after(async () => {
    await client?.close();
  });

  it("lists the delegation and talk tools with their input schemas", async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      "add_task",
      "answer_question",
      "message_swarm",
      "send_trigger",
      "swarmboard_findings",
      "swarmboard_launch",
      "swarmboard_status",
      "swarmboard_stop",
    ]);
    const launch = tools.find((t) => t.name === "swarmboard_launch");
    assert.deepEqual(launch?.inputSchema.required, ["goal"]);
  });

  it("answers bad arguments with a tool error that says what is wrong", async () => {
    const badKind = await client.callTool({ name: "swarmboard_findings", arguments: { kind: ["NOPE"] } });
    assert.equal(badKind.isError, true);
    assert.match(textOf(badKind), /Invalid arguments for tool swarmboard_findings.*kind/s);
    const noGoal = await client.callTool({ name: "swarmboard_launch", arguments: { agents: 2 } });
    assert.equal(noGoal.isError, true);
    assert.match(textOf(noGoal), /goal/);
    const none = await client.callTool({ name: "swarmboard_status", arguments: {} });
    assert.equal(none.isError, true);
    assert.match(textOf(none), /No swarm has been launched yet/);
  });

  it("launches a scripted swarm and reads its findings and status as resources", async () => {
    const launched = await client.callTool({
      name: "swarmboard_launch",
      arguments: { goal: "Read the stats module", recipe: "research", agents: 2 },
    });
    assert.ok(!launched.isError, textOf(launched));
    swarmId = /Launched swarm (\S+) /.exec(textOf(launched))?.[1] ?? "";
    assert.ok(swarmId, textOf(launched));
    const findingsUri = `swarmboard://swarms/${swarmId}/findings`;
    const findings = await waitFor("FACTs from both agents", async () => {
      const read = await client.readResource({ uri: findingsUri });
      const text = String((read.contents[0] as { text?: string }).text ?? "");
      return /agent-1: median/.test(text) && /agent-2: median/.test(text) ? text : undefined;
    });
    assert.match(findings, /FACT agent-1: agent-1: median lives in src\/stats\.js \(src\/stats\.js:9\)/);
    const { resources } = await client.listResources();
    assert.ok(
      resources.some((r) => r.uri === findingsUri),
      JSON.stringify(resources),
    );
    const status = await client.readResource({ uri: `swarmboard://swarms/${swarmId}/status` });
    const statusText = String((status.contents[0] as { text?: string }).text);
    assert.match(statusText, new RegExp(`^Swarm ${swarmId}: running`));
    assert.match(statusText, /Agent rules in the trunk: AGENTS\.md/);
  });

  it("stops the swarm", async () => {
    const stopped = await client.callTool({ name: "swarmboard_stop", arguments: { swarmId } });
    assert.ok(!stopped.isError, textOf(stopped));
    const ended = await waitFor("the swarm to end", async () => {
      const text = textOf(await client.callTool({ name: "swarmboard_status", arguments: { swarmId } }));
      return /: stopped/.test(text) ? text : undefined;
    });
    assert.match(ended, /It has ended/);
    assert.ok(!/Error|TypeError/.test(stderr.replace(/worker (warn|error):.*$/gm, "")), stderr);
  });
});
