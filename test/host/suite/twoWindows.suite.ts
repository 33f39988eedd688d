// Issue 26 with two windows (two extension hosts in one code-server, one on each folder) on one shared worker:
// both attach to the same server, which loads the model once for both windows' swarms; each window shows the
// swarms of its own folders only. A `swarmboard run --server` from the command line attaches to the same server and
// its swarm runs beside both windows' (the server's status lists both windows and the CLI; its peak RSS is stated
// against the model file's size); an MCP client (`swarmboard mcp --server`) on the command line's repository
// attaches to the same server and sees that swarm, which another client started, live. Then the server is SIGKILLed: both windows say so and attach again to one new
// server (the start lock: one server for the machine however many windows start one), the swarm that ran is listed
// interrupted, and Resume continues it. Both windows run this file; `myPart()` says which one this is.
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { sharedServerPaths } from "../../../src/host/workerLinks/sharedWorker";
import type { TurnScript } from "../../../src/protocol/turnScript";
import type { WorkerStatus } from "../../../src/protocol/webviewMessages";
import { reportLine, requestScreenshot } from "./automationMarkers";
import { peakRss, startCliServerRun, type CliServerRun } from "./cliServerRun";
import { swarmboard, waitFor } from "./hostApi";
import { modelPath, shortRecipe } from "./reviewSwarmRun";
import { startMcpServerClient, type McpServerClient } from "./mcpServerClient";
import { attachCount, attachShared, bundleVersion, leaveShared, restoreSetting, serverStatus } from "./sharedServer";
import { hear, say } from "./windowMeeting";
import { batchBesideWatch, watchBesideBatch } from "./watchBesideBatch";
import {
  endsCompleted,
  folder,
  other,
  part,
  recipeFile,
  waitingCommand,
  waitingRecipe,
  waitingScript,
  type Hooks,
} from "./twoWindowsSwarms";

function postingScript(count: number): TurnScript {
  const posts = Array.from({ length: count }, (_, i) => ({
    tool: "post_finding",
    think: "Reading the module again: what each function returns on an empty list.",
    args: { kind: "OBSERVED", text: `window ${part} observation ${i + 1}` },
  }));
  return {
    agents: {
      "agent-1": [...posts, { tool: "finish", args: { summary: "looked" } }],
      synthesist: [{ tool: "finish", args: { summary: "-" } }],
    },
  };
}

/** Fifteen findings: a few seconds of decoding each side, so two swarms launched together overlap. */
const postingRecipe = { ...shortRecipe, budgets: { ...shortRecipe.budgets, steps: 40 } };

/** Launches the posting swarm in this window's folder; `refused` when the server runs another swarm already. */
async function launchPosting(hooks: Hooks): Promise<{ swarmId?: string; refused?: string }> {
  const { file, stateDir } = recipeFile("posting", postingRecipe);
  try {
    const swarmId = await hooks.reviewSurfaces.swarms.start({
      goal: `Window ${part} looks at the stats module`,
      recipe: file,
      modelPath: modelPath(),
      workspace: folder(),
      stateDir,
      threads: 1,
      policy: { allow: [], ask: [], deny: [] },
      script: postingScript(15),
    });
    return { swarmId };
  } catch (error) {
    const message = (error as Error).message;
    if (!/already running/i.test(message)) throw error;
    return { refused: message };
  }
}

/** The server's own log (beside its socket): one "serving on" line per server that started. */
function serversStarted(): number {
  const log = sharedServerPaths(bundleVersion).logFile;
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((l) => l.includes("serving on")).length;
}

describe(`two windows on one shared worker (window ${part})`, function () {
  this.timeout(900_000);

  let cli: CliServerRun | undefined;
  let mcp: McpServerClient | undefined;

  afterEach(async function () {
    cli?.kill();
    await mcp?.close().catch(() => undefined);
    mcp = undefined;
    // The other window stops waiting for this one (see hear).
    if (this.currentTest?.state === "failed") say(part, "failed");
  });

  after(async () => {
    say(part, "done");
    await hear(other, "done", 600_000).catch(() => undefined);
    if (part === "a") await leaveShared();
    else await restoreSetting();
  });

  it("attaches both windows to one server that loads the model once, each window showing its own swarms", async () => {
    const { hooks } = await swarmboard();
    await waitFor("the worker to be ready", () => hooks.worker.state.state === "ready", 120_000);
    say(part, "private-ready");
    await hear(other, "private-ready");
    // Both windows turn the setting on and start a server at once: the start lock lets one serve.
    const pid = await attachShared(hooks);
    say(part, "attached", { pid });
    const theirs = await hear<{ pid: number }>(other, "attached");
    assert.equal(theirs.pid, pid, "both windows attached to the same server");
    const clients = (await serverStatus()).clients.filter((c) => c.kind === "vscode");
    assert.ok(clients.length >= 2, `the server serves both windows: ${JSON.stringify(clients)}`);

    // A command-line run on the same server (window a starts it): live, waiting for its answer, while both
    // windows launch theirs.
    cli = part === "a" ? startCliServerRun() : undefined;
    const question = await cli?.asked(300_000);
    say(part, "cli-asking", { swarmId: cli?.swarmId() });
    const heard = part === "a" ? undefined : await hear<{ swarmId: string }>("a", "cli-asking", 600_000);
    const cliSwarm = cli?.swarmId() ?? heard?.swarmId;
    assert.ok(cliSwarm, "the command line's swarm started");
    if (cli) {
      // An MCP client on the command line's repository, on the same server: it lists that swarm, live.
      mcp = await startMcpServerClient(cli.workspace);
      assert.deepEqual(await mcp.listedSwarms(), [cliSwarm], `the MCP client's resources:\n${mcp.stderr()}`);
      assert.match(await mcp.status(cliSwarm), new RegExp(`^Swarm ${cliSwarm}: running`));
      reportLine(`    window a: an MCP client on the same server lists the command line's swarm ${cliSwarm}, running`);
    }

    const launched = await launchPosting(hooks);
    say(part, "launched", launched);
    const theirLaunch = await hear<{ swarmId?: string; refused?: string }>(other, "launched");
    // One server runs many swarms: both windows' launches are accepted and run at the same time.
    assert.equal(launched.refused, undefined, `window ${part}'s launch was refused: ${launched.refused ?? ""}`);
    assert.equal(theirLaunch.refused, undefined, `window ${other}'s launch was refused: ${theirLaunch.refused ?? ""}`);
    const both = await serverStatus();
    const running = [launched.swarmId, theirLaunch.swarmId].filter(
      (id) => id !== undefined && both.swarms.includes(id),
    );
    assert.equal(running.length, 2, `both swarms run at once in the server: ${both.swarms.join(", ")}`);
    assert.ok(both.swarms.includes(cliSwarm), `and the command line's: ${both.swarms.join(", ")}`);
    const kinds = both.clients.map((c) => c.kind);
    assert.ok(kinds.filter((k) => k === "vscode").length >= 2 && kinds.includes("cli"), `clients: ${kinds.join(", ")}`);
    if (part === "a") assert.ok(kinds.includes("mcp"), `the MCP client on the same server: ${kinds.join(", ")}`);
    const swarmId = launched.swarmId!;
    await endsCompleted(hooks, swarmId);
    // Every one of this window's fifteen findings is on its board, and none of the other window's swarm: two swarms
    // in one worker keep their boards apart. (The worker may add notes of its own, a watchdog's under load.)
    const texts = (hooks.swarms.store.swarm(swarmId)?.entries ?? []).map((e) => `${e.kind} ${e.author}: ${e.text}`);
    const ours = texts.filter((t) => t.startsWith(`OBSERVED agent-1: window ${part} observation `));
    assert.equal(new Set(ours).size, 15, `every finding on the board: ${texts.join(" | ")}`);
    assert.ok(
      !texts.some((t) => t.includes(`window ${other} observation`)),
      `the other's finding: ${texts.join(" | ")}`,
    );
    say(part, "swarm-ended", { swarmId });
    const theirs2 = await hear<{ swarmId: string }>(other, "swarm-ended");
    if (cli && question) {
      cli.answer(question, "go on");
      const code = await waitFor("the CLI to exit", () => cli?.exitCode(), 300_000);
      assert.equal(code, 0, `the command line's swarm completed:\n${cli.output()}`);
    }

    await hooks.history.refresh();
    assert.ok(hooks.swarms.store.swarm(swarmId), "this window shows its own swarm");
    assert.equal(hooks.swarms.store.swarm(theirs2.swarmId), undefined, "and not the other folder's");
    const status = await serverStatus();
    assert.equal(status.pid, pid);
    assert.equal(status.modelLoads, 1, "one model load for both windows' swarms and the command line's (and MCP)");
    const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
    reportLine(
      `    window ${part}: server pid ${status.pid}: peak RSS ${mib(peakRss(status.pid))} (VmHWM), now ` +
        `${mib(status.rssBytes)}, for three swarms on one load of a ${mib(statSync(modelPath()).size)} model file`,
    );
    // The next test loads a second model: neither window goes on before both counted the loads of this one.
    say(part, "loads-counted");
    await hear(other, "loads-counted");
  });

  it("runs a standing swarm in one window beside a batch swarm in the other, the standing one routing work", async () => {
    const { hooks } = await swarmboard();
    if (part === "b") await watchBesideBatch(hooks);
    else await batchBesideWatch(hooks);
  });

  it("says so in both windows when the server is SIGKILLed, restarts one server, and Resume continues", async () => {
    const { hooks } = await swarmboard();
    const states: WorkerStatus[] = [];
    const watching = hooks.worker.onDidChangeState((s) => states.push(s));
    try {
      const before = hooks.worker.state.state === "ready" ? hooks.worker.state.pid : undefined;
      assert.ok(before, "attached to the server");
      const attachedBefore = attachCount(hooks);
      let swarmId: string | undefined;
      let pickResume: (action: string) => void = () => undefined;
      if (part === "a") {
        const { file, stateDir } = recipeFile("waiting", waitingRecipe);
        swarmId = await hooks.reviewSurfaces.swarms.start({
          goal: "Wait in the shared worker until it is killed",
          recipe: file,
          modelPath: modelPath(),
          workspace: folder(),
          stateDir,
          threads: 1,
          policy: { allow: [], ask: [waitingCommand], deny: [] },
          script: waitingScript,
        });
        await waitFor(
          "the agent waiting for an approval",
          () => (hooks.swarms.store.swarm(swarmId!)?.approvals.length ?? 0) >= 1,
          180_000,
        );
        const resumePicked = new Promise<string>((resolve) => (pickResume = resolve));
        hooks.swarms.notices.answerNext(() => resumePicked);
        await hear(other, "watching");
        const started = serversStarted();
        process.kill(before, "SIGKILL");
        say(part, "killed", { started });
      } else {
        say(part, "watching");
        await hear(other, "killed");
      }

      await waitFor(
        "this window to say the worker crashed",
        () => states.some((s) => s.state === "exited" && /crashed/.test(s.reason)),
        60_000,
      );
      await waitFor("the window to attach again", () => attachCount(hooks) > attachedBefore, 180_000);
      const after = await waitFor(
        "the new server ready",
        () => (hooks.worker.state.state === "ready" ? hooks.worker.state.pid : undefined),
        60_000,
      );
      assert.notEqual(after, before, "a new server");
      say(part, "reattached", { pid: after });
      const theirs = await hear<{ pid: number }>(other, "reattached");
      assert.equal(theirs.pid, after, "both windows attached to the one restarted server");
      const killed = await hear<{ started: number }>("a", "killed");
      assert.equal(serversStarted(), killed.started + 1, "one server started after the kill, for both windows");

      if (swarmId !== undefined) {
        const id = swarmId;
        const notice = await waitFor("the interrupted notice", () =>
          hooks.swarms.notices.recent().find((n) => n.text.includes("was interrupted") && n.text.includes("killed")),
        );
        assert.deepEqual(notice.actions.slice(0, 2), ["Resume", "Review Branches"]);
        const node = hooks.swarmsView.roots().find((n) => n.kind === "swarm" && n.swarmId === id);
        assert.match(node?.description ?? "", /· interrupted ·/);
        await new Promise((r) => setTimeout(r, 1000)); // not an assertion: lets the notice slide in for the picture
        await requestScreenshot("two-windows-server-killed");
        hooks.history.resumeOverrides.script = { agents: {} };
        try {
          pickResume("Resume");
          await waitFor(
            "the resumed swarm to run",
            () => hooks.swarms.store.swarm(id)?.interrupted === undefined,
            60_000,
          );
          await endsCompleted(hooks, id);
        } finally {
          delete hooks.history.resumeOverrides.script;
        }
      }
    } finally {
      watching.dispose();
    }
  });
});
