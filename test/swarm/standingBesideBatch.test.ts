// A standing swarm and a batch swarm at once on one shared server (issue 26), with the real CLI: a plain `swarmboard
// watch` (no flag, no $SWARMBOARD_SERVER: the server is its default, as run's) starts the server and stands there
// (its router waits for triggers) while `swarmboard run` on the same model and settings joins its pool (one model
// load, the server lists both, the batch's budget says 2 swarms); a trigger sent while the batch runs is routed (the
// router gets its step), the router's and the batch agent's forced thinking step together (the pool generated more
// tokens than it made dispatches while each swarm had one agent generating: rows of both swarms in one dispatch),
// the batch completes, and Ctrl-C stops the watch on the server (exit 4). An MCP client (`swarmboard mcp`, the SDK's
// client over stdio) on the same server lists both swarms, which other clients started. The tiny ChatML model and
// forced turns; needs `npm run build`.
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { connectToServer } from "../../src/cli/serverConnection";
import { serverStatusMethod } from "../../src/protocol/serverRpc";
import { swarmEventSchema, type SwarmEvent } from "../../src/protocol/swarmEvents";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { removeDir } from "../unit/workspace/gitFixture";
import { ownServerFolder } from "../serverFolder";
import { makeSampleRepo, ofType, repoRoot, testRecipe, until, type SampleRepo } from "./swarmFixtures";
import { startCli as startCliChild } from "./cliChild";

const cli = path.join(repoRoot(), "dist/cli/main.js");
/** The version stamped into dist/ (tests compiled by tsc see "dev"): the server's socket and hello use it. */
const extensionVersion: string = JSON.parse(readFileSync(path.join(repoRoot(), "package.json"), "utf8")).version;
const model = sharedModelPath("tiny-random-qwen2-chatml.gguf");
const finish = { tool: "finish", args: { summary: "-" } };
const thinking = (words: number, what: string) => Array.from({ length: words }, (_, i) => `${what}${i}`).join(" ");

/** The CLI without the environment's server choice: each command runs where its default puts it. */
function startCli(args: string[]) {
  const env = { ...process.env };
  delete env.SWARMBOARD_SERVER;
  return startCliChild(args, env);
}

/** The events the server wrote to a state dir's trace so far (a line being written is left for the next read). */
function trace(stateDir: string): SwarmEvent[] {
  const file = path.join(stateDir, "events.jsonl");
  if (!existsSync(file)) return [];
  const lines = readFileSync(file, "utf8").split("\n").slice(0, -1);
  return lines.filter((l) => l.trim() !== "").map((l) => swarmEventSchema.parse(JSON.parse(l)));
}

const callAt = (events: SwarmEvent[], agentId: string, tool: string, nth = 0) =>
  ofType(events, "tool-call").filter((e) => e.agentId === agentId && e.tool === tool)[nth]?.time;

describe("a standing swarm and a batch swarm at once on one server (watch and run by default, mcp)", function () {
  this.timeout(10 * 60_000);
  ownServerFolder();
  let repo: SampleRepo;

  before(() => {
    assert.ok(existsSync(cli), `${cli} is missing: run \`npm run build\` first`);
    repo = makeSampleRepo();
  });
  after(() => removeDir(repo.root));

  it("runs both on one pool, routes a trigger during the batch, and an MCP client lists both", async () => {
    const file = (name: string, value: unknown) => {
      const at = path.join(repo.root, name);
      writeFileSync(at, JSON.stringify(value));
      return at;
    };
    const trigger = { id: "live-1", source: "diagnostic", severity: "error", path: "src/stats.js", text: "TS2322" };
    const wait = { tool: "wait_for_triggers", args: {} };
    const assign = { tool: "assign_task", args: { trigger: "live-1", task: "fix it" }, think: thinking(120, "r") };
    const watchScript = file("watch-script.json", { agents: { "agent-1": [wait, assign, wait] } });
    // Without a KV budget of its own, as the watch recipe: swarms share a pool only under the same pool caps.
    const { kvCells: _own, ...budgets } = testRecipe(1).budgets;
    const recipe = { ...testRecipe(1), budgets };
    // The batch agent asks and waits for the answer: the test looks at the server while both swarms are surely live.
    const roles = recipe.roles.map((r) => (r.name === "worker" ? { ...r, tools: [...r.tools, "ask_user"] } : r));
    const post = (text: string, words: number) => ({
      tool: "post_finding",
      args: { kind: "OBSERVED", text },
      think: thinking(words, "b"),
    });
    const ask = { tool: "ask_user", args: { question: "Should median skip NaN values?" } };
    const batchScript = file("batch-script.json", {
      agents: {
        "agent-1": [post("median sorts", 5), ask, post("median skips NaN", 240), finish],
        synthesist: [finish],
      },
    });
    const common = ["--model", model, "--workspace", repo.workspace, "--threads", "1", "--kv-cells", "32768"];
    const standingDir = path.join(repo.root, "state-standing");
    const batchDir = path.join(repo.root, "state-batch");

    const watch = startCli(
      ["watch", ...common, "--script", watchScript, "--plain"].concat(["--state-dir", standingDir]),
    );
    const mcp = new StdioClientTransport({
      command: process.execPath,
      args: [cli, "mcp", "--server", ...common, "--state-root", path.join(repo.root, "mcp-state")],
      env: process.env as Record<string, string>,
      stderr: "pipe",
    });
    let mcpErr = "";
    mcp.stderr?.on("data", (c: Buffer) => (mcpErr += c.toString()));
    const client = new Client({ name: "swarmboard-standing-batch", version: "0.0.0" });
    const watchOut = () => watch.out.stderr + watch.out.stdout;
    await until(() => callAt(trace(standingDir), "agent-1", "wait_for_triggers") !== undefined, "the router's wait");
    await client.connect(mcp);
    const connection = await connectToServer("test", extensionVersion);
    const children = [watch.child];
    try {
      const batch = startCli(
        ["run", "--goal", "Look at the stats module", ...common, "--plain"].concat([
          ...["--recipe", file("ask-recipe.json", { ...recipe, roles }), "--script", batchScript],
          ...["--ask-user-timeout", "300", "--state-dir", batchDir],
        ]),
      );
      children.push(batch.child);
      const asked = /answer with: @answer (\S+) /;
      await until(() => asked.test(batch.out.stdout), `the batch agent's question:\n${batch.out.stderr}`, 300_000);

      const status = await connection.peer.request(serverStatusMethod, {});
      assert.equal(status.modelLoads, 1, "the two swarms on one model load");
      assert.equal(status.swarms.length, 2, `both swarms on the server: ${status.swarms.join(", ")}`);
      const standingId = /^swarm (\S+): state dir/m.exec(watch.out.stdout)?.[1];
      const batchId = /^swarm (\S+): state dir/m.exec(batch.out.stdout)?.[1];
      assert.ok(standingId && batchId, watchOut() + batch.out.stdout);
      assert.match(watch.out.stdout, /^swarm \S+: state dir .* \(on the server, /m, "the plain watch attached");
      assert.match(watch.out.stderr, /started the Swarmboard server/, "the plain watch started the server");
      assert.deepEqual([...status.swarms].sort(), [standingId, batchId].sort());
      const { resources } = await client.listResources();
      const listed = resources.map((r) => r.uri).filter((u) => u.endsWith("/status"));
      assert.deepEqual(
        listed.sort(),
        [standingId, batchId].map((id) => `swarmboard://swarms/${id}/status`).sort(),
        `the MCP client lists the swarms the watch and the run started:\n${mcpErr}`,
      );
      const said = await client.callTool({ name: "swarmboard_status", arguments: { swarmId: standingId } });
      const text = (said as { content: Array<{ text?: string }> }).content.map((c) => c.text ?? "").join("");
      assert.match(text, new RegExp(`^Swarm ${standingId}: running`), text);

      // The trigger and the answer at once: the router's and the batch agent's thinking step together.
      watch.child.stdin.write(`/trigger ${JSON.stringify(trigger)}\n`);
      batch.child.stdin.write(`@answer ${asked.exec(batch.out.stdout)![1]} yes\n`);
      assert.equal(await batch.exited, 0, batch.out.stderr + batch.out.stdout);
      assert.match(batch.out.stdout, /^== completed: /m);
      // The router's decision names the worker that took the trigger once it started; the worker then ends.
      const workerDone = (events: SwarmEvent[]) => {
        const worker = ofType(events, "trigger-decision").find((e) => e.agentId !== undefined)?.agentId;
        return ofType(events, "agent-state").some((e) => e.agentId === worker && e.state === "done");
      };
      await until(() => workerDone(trace(standingDir)), `the trigger's worker:\n${watchOut()}`, 120_000);

      const standing = trace(standingDir);
      const batchEvents = trace(batchDir);
      const decided = ofType(standing, "trigger-decision").find((e) => e.triggerId === "live-1");
      const batchEnd = ofType(batchEvents, "swarm-ended")[0];
      assert.ok(decided && batchEnd, "the router decided on the trigger, and the batch ended");
      assert.ok(decided.time <= batchEnd.time, "the router got its step while the batch ran");
      const share = ofType(batchEvents, "kv-stats").map((e) => e.stats.share?.swarms);
      assert.ok(share.includes(2), `the batch's budget shows the pool shared by 2 swarms: ${share.join(",")}`);

      // Until the router's assign and the batch agent's second finding, each swarm had one agent generating: a pool
      // that generated more tokens than it made dispatches then put rows of both swarms in one dispatch.
      const batchStart = ofType(batchEvents, "swarm-started")[0]!.time;
      const cutoff = Math.min(
        callAt(standing, "agent-1", "assign_task")!,
        callAt(batchEvents, "agent-1", "post_finding", 1)!,
      );
      const snapshots = ofType([...standing, ...batchEvents], "kv-stats")
        .filter((e) => e.time > batchStart && e.time < cutoff)
        .map((e) => e.stats)
        .sort((a, b) => a.generationSteps - b.generationSteps);
      const [first, last] = [snapshots[0], snapshots.at(-1)];
      assert.ok(first && last, "budget snapshots while both ran");
      const steps = last.generationSteps - first.generationSteps;
      const tokens = last.generatedTokens - first.generatedTokens;
      // +2: a snapshot taken between a dispatch and the counting of its tokens.
      assert.ok(tokens > steps + 2, `${tokens} tokens in ${steps} dispatches while both swarms generated`);
      console.log(`      ${tokens} tokens generated in ${steps} dispatches while both swarms had an agent generating`);

      watch.child.kill("SIGINT");
      assert.equal(await watch.exited, 4, `the watch stopped on Ctrl-C:\n${watchOut()}`);
      assert.match(watch.out.stdout, /^== stopped: /m);
      // The server lets the swarm go a moment after its end event (its record written, its pool's seats released).
      let left = (await connection.peer.request(serverStatusMethod, {})).swarms;
      for (let i = 0; i < 100 && left.length > 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
        left = (await connection.peer.request(serverStatusMethod, {})).swarms;
      }
      assert.deepEqual(left, [], "no swarm left on the server, which still serves");
    } finally {
      connection.close();
      await client.close();
      for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
