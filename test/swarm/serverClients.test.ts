// Every client on the user's shared worker (issue 26): `swarmboard run --server` with no server running starts one,
// detached, on a temp XDG_RUNTIME_DIR, and prints the same run as an in-process one; a second run on it does not load
// the model again (the server's own load count stays 1); `--no-server` runs in its own process, leaving the server's
// count alone; an answer typed on a server run's stdin reaches the agent, and Ctrl-C stops its swarm on the server
// (exit 4, the server serving on); `swarmboard mcp --server` (the SDK's client) launches on the same server while another client follows
// that swarm, and both see it end. The tiny ChatML model and forced turns; needs `npm run build`.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { connectToServer, type ServerConnection } from "../../src/cli/serverConnection";
import { serverStatusMethod, swarmFollowMethod } from "../../src/protocol/serverRpc";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import { swarmEventsNotification } from "../../src/protocol/swarmRpc";
import { processAlive, thisMachinePaths } from "../../src/worker/server/serverFiles";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { removeDir } from "../unit/workspace/gitFixture";
import { makeSampleRepo, repoRoot, testRecipe, until, type SampleRepo } from "./swarmFixtures";
import { SwarmRegistry } from "../../src/workspace/swarmRegistry";
import { startCli } from "./cliChild";

const cli = path.join(repoRoot(), "dist/cli/main.js");
/** The version stamped into dist/ (tests compiled by tsc see "dev"): the server's socket and hello use it. */
const extensionVersion: string = JSON.parse(readFileSync(path.join(repoRoot(), "package.json"), "utf8")).version;
const model = sharedModelPath("tiny-random-qwen2-chatml.gguf");
const finish = { tool: "finish", args: { summary: "-" } };

interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The summary's lines that do not name this run's paths or ids: the same for the same forced swarm. */
function summaryShape(stdout: string): string[] {
  const summary = stdout.slice(stdout.indexOf("\n== "));
  return summary.split("\n").filter((l) => /^(== |findings: )/.test(l));
}

describe("every client on the shared worker (run --server, mcp --server)", function () {
  this.timeout(15 * 60_000);
  let repo: SampleRepo;
  let env: NodeJS.ProcessEnv;
  let recipeFile: string;
  let scriptFile: string;
  /** The MCP delegation's turns: long enough that a client attaching after the launch sees it run and end. */
  let longScriptFile: string;
  const savedRuntimeDir = process.env.XDG_RUNTIME_DIR;
  const connections: ServerConnection[] = [];

  before(() => {
    assert.ok(existsSync(cli), `${cli} is missing: run \`npm run build\` first`);
    repo = makeSampleRepo();
    const runtimeDir = mkdtempSync(path.join(os.tmpdir(), "sb-clients-"));
    process.env.XDG_RUNTIME_DIR = runtimeDir; // this process's own connections find the same socket
    env = { ...process.env, XDG_RUNTIME_DIR: runtimeDir, SWARMBOARD_SERVER: "" };
    recipeFile = path.join(repo.root, "e2e.json");
    writeFileSync(recipeFile, JSON.stringify(testRecipe(1)));
    scriptFile = path.join(repo.root, "script.json");
    const post = { tool: "post_finding", args: { kind: "OBSERVED", text: "median sorts in place" } };
    writeFileSync(scriptFile, JSON.stringify({ agents: { "agent-1": [post, finish], synthesist: [finish] } }));
    longScriptFile = path.join(repo.root, "long-script.json");
    const busy = Array.from({ length: 25 }, () => ({ tool: "grep_board", args: { kind: "FACT" } }));
    writeFileSync(
      longScriptFile,
      JSON.stringify({ agents: { "agent-1": [...busy, post, finish], synthesist: [finish] } }),
    );
  });

  after(async () => {
    for (const c of connections.splice(0)) c.close();
    const info = thisMachinePaths(extensionVersion).infoFile;
    if (existsSync(info)) {
      const { pid } = JSON.parse(readFileSync(info, "utf8")) as { pid: number };
      process.kill(pid, "SIGTERM");
      await until(() => !processAlive(pid), "the server's exit", 30_000).catch(() => process.kill(pid, "SIGKILL"));
    }
    if (savedRuntimeDir === undefined) delete process.env.XDG_RUNTIME_DIR;
    else process.env.XDG_RUNTIME_DIR = savedRuntimeDir;
    removeDir(repo.root);
  });

  const runArgs = (stateDir: string, ...extra: string[]) => [
    "run",
    "--goal",
    "Look at the stats module",
    "--model",
    model,
    "--workspace",
    repo.workspace,
    "--recipe",
    recipeFile,
    "--script",
    scriptFile,
    "--threads",
    "1",
    "--kv-cells",
    "16384",
    "--plain",
    "--state-dir",
    path.join(repo.root, stateDir),
    ...extra,
  ];

  it("starts the server for the first run, prints the run as in process, and loads the model once for two runs", async () => {
    assert.ok(!existsSync(thisMachinePaths(extensionVersion).socket), "no server runs before the first run");
    const first = await runCli(runArgs("state-server-1", "--server"), env);
    assert.equal(first.code, 0, first.stderr + first.stdout);
    assert.match(first.stderr, /started the Swarmboard server \(pid \d+\)/);
    assert.match(first.stdout, /^swarm \S+: state dir .*state-server-1 \(on the server, /m);
    const inProcess = await runCli(runArgs("state-in-process", "--no-server"), env);
    assert.equal(inProcess.code, 0, inProcess.stderr + inProcess.stdout);
    assert.deepEqual(summaryShape(first.stdout), summaryShape(inProcess.stdout));
    assert.deepEqual(summaryShape(first.stdout), ["== completed: every agent finished", "findings: OBSERVED 1"]);
    assert.match(first.stdout, /^branches: (?!\(none\))\S+ \(integration\)$/m);
    assert.match(first.stdout, /^ {10}\S+ {2}agent-1 /m);
    const trace = path.join(repo.root, "state-server-1", "events.jsonl");
    assert.ok(readFileSync(trace, "utf8").includes('"swarm-ended"'), "the server wrote the state dir's trace");
    // The repository's history says the CLI launched it, though the server (a worker) started it.
    const serverSwarmId = /^swarm (\S+): state dir/m.exec(first.stdout)![1]!;
    const record = await (await SwarmRegistry.forRepository(repo.workspace)).get(serverSwarmId);
    assert.equal(record?.launchedBy, "cli");

    const second = await runCli(runArgs("state-server-2", "--server"), { ...env, SWARMBOARD_SERVER: "1" });
    assert.equal(second.code, 0, second.stderr + second.stdout);
    assert.doesNotMatch(second.stderr, /started the Swarmboard server/, "the second run attached to the running one");
    const status = await runCli(["serve", "--status"], env);
    assert.equal(status.code, 0, status.stderr);
    assert.match(
      status.stdout,
      /models loaded: 1;/,
      "two server runs, one model load; the in-process run's is its own",
    );
    // The server saw the two server runs and the status call, and not the --no-server run.
    assert.doesNotMatch(inProcess.stdout, /on the server/);
    const serverLog = readFileSync(thisMachinePaths(extensionVersion).logFile, "utf8");
    assert.equal(serverLog.match(/client \d+ attached \(cli,/g)?.length, 3, serverLog);
  });

  it("carries stdin's answer to the server, and Ctrl-C stops the run's swarm there (exit 4) and leaves the server up", async () => {
    const recipe = testRecipe(1);
    const roles = recipe.roles.map((r) => (r.name === "worker" ? { ...r, tools: [...r.tools, "ask_user"] } : r));
    const askRecipe = path.join(repo.root, "ask-recipe.json");
    writeFileSync(askRecipe, JSON.stringify({ ...recipe, roles }));
    const ask = { tool: "ask_user", args: { question: "Should median skip NaN values?" } };
    const askScript = path.join(repo.root, "ask-script.json");
    writeFileSync(askScript, JSON.stringify({ agents: { "agent-1": [ask, ask, finish], synthesist: [finish] } }));
    const args = (stateDir: string) =>
      runArgs(stateDir, "--server", "--ask-user-timeout", "300").map((a) =>
        a === recipeFile ? askRecipe : a === scriptFile ? askScript : a,
      );
    const answered = startCli(args("state-answered"), env);
    const asked = /answer with: @answer (\S+) /;
    await until(() => asked.test(answered.out.stdout), "agent-1's first question", 120_000);
    answered.child.stdin.write(`@answer ${asked.exec(answered.out.stdout)![1]} yes, skip them\n`);
    await until(() => /answer to \S+ sent/.test(answered.out.stderr), "the answer sent", 30_000);
    // Its second question waits: Ctrl-C stops the swarm on the server, and the run prints how it ended.
    await until(() => (answered.out.stdout.match(/answer with: @answer/g) ?? []).length === 2, "the second question");
    answered.child.kill("SIGINT");
    assert.equal(await answered.exited, 4, answered.out.stderr + answered.out.stdout);
    assert.match(answered.out.stderr, /Stopping swarm \S+ on the server/);
    assert.match(answered.out.stdout, /^== stopped: /m);
    const status = await runCli(["serve", "--status"], env);
    assert.match(status.stdout, /^swarms: none$/m, "the stopped swarm ended on the server, which still serves");
  });

  it("launches an MCP delegation on the same server while another client follows it", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, "mcp", "--server", "--model", model, "--workspace", repo.workspace, "--threads", "1"].concat([
        "--kv-cells",
        "16384",
        "--script",
        longScriptFile,
        "--state-root",
        path.join(repo.root, "mcp-state"),
      ]),
      env: env as Record<string, string>,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
    const client = new Client({ name: "swarmboard-server-test", version: "0.0.0" });
    await client.connect(transport);
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const r = (await client.callTool({ name, arguments: args })) as { content: Array<{ text?: string }> };
        return r.content.map((c) => c.text ?? "").join("");
      };
      const follower = await connectToServer("test", extensionVersion);
      connections.push(follower);
      const seen: SwarmEvent[] = [];
      follower.peer.onNotification(swarmEventsNotification, ({ events }) => seen.push(...events));
      const launched = await call("swarmboard_launch", { goal: "Look at the stats module", recipe: recipeFile });
      const swarmId = /Launched swarm (\S+) /.exec(launched)?.[1];
      assert.ok(swarmId, launched + stderr);
      await follower.peer.request(swarmFollowMethod, { swarmIds: [swarmId] });
      const during = await follower.peer.request(serverStatusMethod, {});
      assert.ok(
        during.clients.some((c) => c.kind === "mcp"),
        `the MCP server is a client: ${JSON.stringify(during.clients)}`,
      );
      await until(() => seen.some((e) => e.type === "swarm-ended" && e.swarmId === swarmId), "the end at the follower");
      for (let i = 0; i < 50 && !/It has ended/.test(await call("swarmboard_status", { swarmId })); i++)
        await new Promise((r) => setTimeout(r, 200));
      assert.match(await call("swarmboard_status", { swarmId }), /It has ended/);
      assert.ok(
        seen.some((e) => e.type === "board-entry" && e.swarmId === swarmId),
        "the follower saw its finding (posted after it followed: 25 steps in)",
      );
      const after = await follower.peer.request(serverStatusMethod, {});
      assert.equal(after.modelLoads, 1, "the MCP delegation ran on the model the runs loaded");
    } finally {
      await client.close();
    }
  });
});
