// The CLI (the real process, the real runtime on stories260K, real git repositories) with bad inputs: each gets a
// message that says what is wrong and what to do, exit code 2, and nothing written; a model that cannot call tools
// is one of them for a free run (the scripted runs here force their calls and need none of the model's own). Then a
// resume from another folder (its saved inputs untouched) and two runs in a row with fresh state dirs (disjoint
// branches and worktrees).
import assert from "node:assert/strict";
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { git, makeSampleRepo, repoRoot, testRecipe, type SampleRepo } from "./swarmFixtures";

const cli = path.join(repoRoot(), "dist", "cli", "main.js");
const model = sharedModelPath("stories260K.gguf");

/** Runs the real CLI; `wrap` is a command line it runs under (e.g. bubblewrap with a read-only mount). */
function runCli(args: string[], options: SpawnSyncOptions = {}, wrap: string[] = []) {
  assert.ok(existsSync(cli), `${cli} is missing: run npm run build first`);
  // In process: these runs are about this process's checks and files, and start no shared server.
  const [command, ...rest] = [...wrap, process.execPath, cli, ...args, ...(args[0] === "run" ? ["--no-server"] : [])];
  // Refusals and runs whose agents finish at once: seconds. A hang must fail here, not block mocha (spawnSync).
  const out = spawnSync(command!, rest, { encoding: "utf8", timeout: 5 * 60_000, killSignal: "SIGKILL", ...options });
  return { status: out.status, stdout: String(out.stdout), stderr: String(out.stderr) };
}

function swarmBranches(workspace: string): string[] {
  return git(workspace, "for-each-ref", "--format=%(refname:short)", "refs/heads/swarmboard/")
    .split("\n")
    .filter(Boolean);
}

describe("the CLI's inputs (real CLI process, stories260K)", function () {
  let repo: SampleRepo;
  let recipeFile = "";
  let noAgents = "";
  before(() => {
    repo = makeSampleRepo();
    recipeFile = path.join(repo.root, "e2e.json");
    // Two workers and a synthesist with one reading tool each: a small trunk, so the runs below stay short.
    const recipe = testRecipe(2);
    const small = {
      ...recipe,
      taskSources: ["goal"],
      roles: recipe.roles.map((r) => ({ ...r, tools: ["read_file"] })),
    };
    writeFileSync(recipeFile, JSON.stringify(small));
    // Every agent and the synthesist finish at once: the runs exercise the records, not the agents.
    const finish = [{ tool: "finish", args: { summary: "nothing to do in this test" } }];
    noAgents = path.join(repo.root, "finish.json");
    writeFileSync(noAgents, JSON.stringify({ agents: { "agent-1": finish, "agent-2": finish, synthesist: finish } }));
  });

  /** A bad input: exit code 2, the message matched, no branch and no state written. */
  function refused(args: string[], message: RegExp, options: SpawnSyncOptions = {}, wrap: string[] = []) {
    const out = runCli(["run", ...args], options, wrap);
    assert.equal(out.status, 2, `exit code 2 expected:\n${out.stdout}\n${out.stderr}`);
    assert.match(out.stderr, message);
    assert.doesNotMatch(out.stderr, /Usage:|swarmboard\.kvCellsBudget|EEXIST|EROFS/);
    assert.deepEqual(swarmBranches(repo.workspace), [], "nothing was created in the repository");
    return out;
  }

  it("refuses a workspace that is a file", () => {
    const file = path.join(repo.workspace, "README.md");
    refused(
      ["--goal", "g", "--model", model, "--workspace", file],
      /The workspace .*README\.md is a file, not a folder/,
    );
  });

  it("refuses a state dir that is a file", () => {
    const file = path.join(repo.root, "state-file");
    writeFileSync(file, "x");
    refused(
      ["--goal", "g", "--model", model, "--workspace", repo.workspace, "--state-dir", file],
      /The state dir .*state-file is a file: give --state-dir a folder/,
    );
  });

  it("refuses a state dir it cannot write", () => {
    const locked = path.join(repo.root, "locked");
    mkdirSync(locked);
    // root may write anywhere a permission would stop others: as root the folder is mounted read-only for the
    // CLI (bubblewrap; EROFS), otherwise it is made read-only by its mode (EACCES). The check is the same.
    const asRoot = process.getuid?.() === 0;
    if (!asRoot) chmodSync(locked, 0o555);
    const wrap = asRoot ? ["bwrap", "--dev-bind", "/", "/", "--ro-bind", locked, locked] : [];
    refused(
      ["--goal", "g", "--model", model, "--workspace", repo.workspace, "--state-dir", path.join(locked, "s")],
      /The state dir .*locked\/s cannot be written \(.*locked: (permission denied|it is on a read-only file system)\)\. Give --state-dir a folder you can write/,
      {},
      wrap,
    );
    assert.deepEqual(readdirSync(locked), []);
  });

  it("refuses --resume on a state dir that does not exist", () => {
    refused(
      ["--resume", "--state-dir", path.join(repo.root, "never")],
      /There is no swarm to resume in .*never: the folder does not exist/,
    );
  });

  it("refuses a model that cannot call tools for a free run, with the reason and what to pick instead", () => {
    for (const file of [model, sharedModelPath("tiny-random-qwen2-chatml.gguf")]) {
      const out = refused(
        ["--goal", "g", "--model", file, "--workspace", repo.workspace, "--recipe", recipeFile],
        /(has no chat template: .*could not act|chat template has no tool calling, so its agents could not call)/,
      );
      assert.match(out.stderr, /Pick an instruct model with native tool calling: Qwen2\.5-1\.5B-Instruct \(hf:Qwen\//);
      assert.match(out.stderr, /List them with `swarmboard model pull --list`/);
      assert.equal(out.stdout, "", "no swarm was announced");
    }
  });

  it("refuses a truncated model for a free run as truncated (both sizes, download again), not as templateless", () => {
    const whole = readFileSync(sharedModelPath("tiny-random-qwen2-chatml.gguf"));
    const cut = path.join(repo.root, "cut.gguf");
    writeFileSync(cut, whole.subarray(0, whole.length - 1));
    const out = refused(
      ["--goal", "g", "--model", cut, "--workspace", repo.workspace, "--recipe", recipeFile],
      new RegExp(`the model file is truncated \\(${whole.length - 1} of ${whole.length} bytes\\): download it again`),
    );
    assert.doesNotMatch(out.stderr, /chat template|model pull --list/);
    assert.equal(out.stdout, "", "no swarm was announced");
  });

  // stories260K has no chat template, so only a scripted run (forced calls) reaches the KV checks below.
  it("refuses a goal too long for the KV budget, naming the CLI's flags", () => {
    const goal = "Describe the median function in words. ".repeat(3_000);
    const out = refused(
      [
        ...["--goal", goal, "--model", model, "--workspace", repo.workspace, "--recipe", recipeFile],
        ...["--threads", "1", "--script", noAgents],
      ],
      new RegExp(
        `The swarm does not fit: its shared context .*goal of ${goal.length.toLocaleString("en-US")} characters.* ` +
          "tokens of this model, and the KV budget of 32,768 cells set by the recipe's budgets\\.kvCells",
      ),
    );
    assert.match(out.stderr, /Shorten --goal .* or give --kv-cells [\d,]+ or more/);
  });

  it("refuses --gpu cuda on a machine without CUDA, saying what to install (exit 2)", function () {
    // On a machine with an NVIDIA driver the CUDA runtime may load: there bench/gpu-check.sh is the check.
    if (existsSync("/proc/driver/nvidia/version")) this.skip();
    refused(
      [
        ...["--goal", "g", "--model", model, "--workspace", repo.workspace],
        ...["--recipe", recipeFile, "--script", noAgents, "--gpu", "cuda"],
      ],
      /The cuda GPU backend cannot be used here: .* It needs an NVIDIA GPU with its driver, and the CUDA Toolkit .*buildRuntime\.mjs --gpu cuda.* Or run on the CPU with --gpu false/,
    );
  });

  it("refuses --gpu metal off macOS and a KV cache type the model's heads cannot hold (exit 2)", () => {
    const args = ["--goal", "g", "--model", model, "--workspace", repo.workspace];
    args.push("--recipe", recipeFile, "--script", noAgents);
    if (process.platform !== "darwin")
      refused([...args, "--gpu", "metal"], /The metal GPU backend cannot be used here: Metal exists only on macOS/);
    refused(
      [...args, "--gpu", "false", "--kv-cache-type", "q8_0"],
      /KV cache type q8_0 stores 32 values per block, and this model's attention heads have 8 \(keys\)/,
    );
  });

  it("refuses --agents 10000 up front with the number that fits", () => {
    const out = refused(
      [
        ...["--goal", "g", "--agents", "10000", "--model", model, "--workspace", repo.workspace],
        ...["--recipe", recipeFile, "--script", noAgents],
      ],
      /--agents 10,000 does not fit: at most \d+ agents fit at once in the KV budget of 32,768 cells set by/,
    );
    const fit = Number(/at most (\d+) agents/.exec(out.stderr)![1]);
    assert.ok(fit > 0 && fit < 10_000, `a usable number: ${fit}`);
    assert.match(out.stderr, new RegExp(`Give --agents ${fit} or fewer`));
  });

  const common = () => ["--recipe", recipeFile, "--model", model, "--workspace", repo.workspace, "--threads", "1"];
  /** A run whose agents all finish at once, into `stateDir`. */
  const finishingRun = (goal: string, stateDir: string, ...flags: string[]) =>
    runCli(["run", "--goal", goal, "--script", noAgents, "--state-dir", stateDir, "--plain", ...common(), ...flags]);
  const runs: Array<{ stateDir: string; id: string }> = [];

  it("refuses a memory budget below the smallest pool, with the cells it holds and the size to give (exit 2)", () => {
    const out = refused(
      ["--goal", "g", "--script", noAgents, "--memory-budget", "10KB", ...common()],
      /The memory budget of 10KB holds 15 KV cells of this model \(640 bytes per cell\), below the smallest pool of 256: give --memory-budget \(swarmboard\.memoryBudget\) 160KiB or more/,
    );
    assert.equal(out.stdout, "", "no swarm was announced");
  });

  it("runs twice in a row with fresh state dirs on disjoint branches and worktrees", () => {
    for (const name of ["a", "b"]) {
      const stateDir = path.join(repo.root, `fresh-${name}`);
      const out = finishingRun("Fix median", stateDir);
      assert.equal(out.status, 0, `${out.stdout}\n${out.stderr}`);
      const id = (JSON.parse(readFileSync(path.join(stateDir, "settings.json"), "utf8")) as { swarmId: string })
        .swarmId;
      runs.push({ stateDir, id });
    }
    assert.notEqual(runs[0]!.id, runs[1]!.id);
    const branchesOf = (id: string) => swarmBranches(repo.workspace).filter((b) => b.startsWith(`swarmboard/${id}/`));
    const [a, b] = runs.map((r) => branchesOf(r.id));
    // Agents that only finish never claim nor write, so each run has its integration branch and no agent branch.
    assert.ok(a!.length >= 1 && b!.length >= 1, `each run has its own branches: ${a} / ${b}`);
    assert.deepEqual(
      a!.filter((x) => b!.includes(x)),
      [],
    );
    // Every agent worktree of a run lives in that run's own state dir, on that run's branch.
    const worktrees = git(repo.workspace, "worktree", "list", "--porcelain")
      .split("\n\n")
      .map((block) => ({
        path: /^worktree (.*)$/m.exec(block)?.[1] ?? "",
        branch: /^branch refs\/heads\/(.*)$/m.exec(block)?.[1] ?? "",
      }))
      .filter((w) => w.branch.startsWith("swarmboard/"));
    for (const wt of worktrees) {
      const owner = runs.find((r) => wt.branch.startsWith(`swarmboard/${r.id}/`));
      assert.ok(owner, `${wt.branch} belongs to one of the runs`);
      assert.ok(wt.path.startsWith(realpathSync(owner.stateDir)), `${wt.path} is in ${owner.stateDir}`);
    }
    const listed = runCli(["list", "--workspace", repo.workspace]);
    assert.equal(listed.status, 0, listed.stderr);
    for (const run of runs) assert.match(listed.stdout, new RegExp(`${run.id}  completed`));
  });

  it("resumes from a folder outside the repository with only the state dir and the model, saved inputs untouched", () => {
    assert.ok(runs[0], "the runs of the test above");
    const { stateDir, id } = runs[0];
    const settingsBefore = readFileSync(path.join(stateDir, "settings.json"), "utf8");
    const recipeBefore = readFileSync(path.join(stateDir, "recipe.json"), "utf8");
    const resumed = runCli(
      ["run", "--resume", "--state-dir", stateDir, "--model", model, "--script", noAgents, "--plain"],
      {
        cwd: os.tmpdir(),
      },
    );
    assert.equal(resumed.status, 0, `${resumed.stdout}\n${resumed.stderr}`);
    assert.match(resumed.stdout, new RegExp(`swarm ${id}: state dir`));
    assert.equal(readFileSync(path.join(stateDir, "settings.json"), "utf8"), settingsBefore);
    assert.equal(readFileSync(path.join(stateDir, "recipe.json"), "utf8"), recipeBefore);
    const events = readFileSync(path.join(stateDir, "events.jsonl"), "utf8");
    assert.equal(events.match(/"type":"swarm-started"/g)?.length, 2, "the trace holds both runs");
  });

  it("refuses to resume a swarm as a free run on a model that cannot call tools, its state untouched", () => {
    assert.ok(runs[0], "the runs of the test above");
    const { stateDir } = runs[0];
    const settingsBefore = readFileSync(path.join(stateDir, "settings.json"), "utf8");
    const eventsBefore = readFileSync(path.join(stateDir, "events.jsonl"), "utf8");
    const out = runCli(["run", "--resume", "--state-dir", stateDir, "--model", model, "--plain"]);
    assert.equal(out.status, 2, `${out.stdout}\n${out.stderr}`);
    assert.match(out.stderr, /stories260K\.gguf has no chat template/);
    assert.equal(readFileSync(path.join(stateDir, "settings.json"), "utf8"), settingsBefore);
    assert.equal(readFileSync(path.join(stateDir, "events.jsonl"), "utf8"), eventsBefore);
  });

  it("sizes the pool from --memory-budget: the cells it holds, said at launch, in the budget and saved for a resume", () => {
    const stateDir = path.join(repo.root, "budgeted");
    const out = finishingRun("g", stateDir, "--memory-budget", "4MiB");
    assert.equal(out.status, 0, `${out.stdout}\n${out.stderr}`);
    // stories260K's F16 cell is 640 bytes: 4 MiB holds 6,553 of them, 6,400 in whole
    // 256-cell blocks (llama.cpp would round a context up past the budget); its trunk alone is about 2,500.
    assert.match(
      out.stdout,
      /KV pool: 6,400 cells set by the memory budget \(--memory-budget \/ swarmboard\.memoryBudget\) \(4MiB\)/,
    );
    const stats = readFileSync(path.join(stateDir, "events.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; stats?: { poolCells: number; poolOrigin?: string } })
      .find((e) => e.type === "kv-stats")?.stats;
    assert.ok(stats, "the run reported its budget");
    assert.equal(stats.poolCells, 6400, "the swarm's context got the cells the budget holds");
    assert.match(stats.poolOrigin ?? "", /set by the memory budget/);
    const saved = JSON.parse(readFileSync(path.join(stateDir, "settings.json"), "utf8")) as { memoryBudget?: string };
    assert.equal(saved.memoryBudget, "4MiB", "a resume sizes the pool the same way");
  });
});
