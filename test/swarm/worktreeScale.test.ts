// Worktrees that scale, on the real runtime (the tiny ChatML test model, every call forced through the real
// decode path) and a real repository of 3,000 files: a research swarm of 8 researchers and a synthesist adds at
// most one checkout's worth of disk (they all read one shared view), and an organisation swarm makes worktrees
// only for the agents that claimed or wrote. The sizes are printed for the closing note; the assertions compare
// them with du.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { builtinRecipes } from "../../src/core/recipeCatalog";
import type { Recipe } from "../../src/protocol/recipe";
import type { SwarmEvent } from "../../src/protocol/swarmEvents";
import type { TurnScript } from "../../src/protocol/turnScript";
import { denyAllApprover } from "../../src/workspace/approvals";
import { defaultPolicyRules } from "../../src/worker/swarm/defaultPolicy";
import { SwarmSession, type SwarmRunOptions, type SwarmSummary } from "../../src/worker/swarm/swarmSession";
import { sharedModelPath } from "../runtime/runtimeTestModels";
import { git, ofType, testRecipe } from "./swarmFixtures";

const FILES = 3_000;
const RESEARCHERS = 8;

/** The built-in organisation recipe's shape (workers then a synthesist), goal task only, four workers. */
function organisationRecipe(): Recipe {
  return { ...testRecipe(4), taskSources: ["goal"] };
}

/** A repository of FILES small files in 30 folders, committed once. */
function bigRepo(): { root: string; workspace: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), "swarmboard-scale-"));
  const workspace = path.join(root, "ws");
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(workspace, `d${String(i % 30).padStart(2, "0")}`);
    if (i < 30) mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `f${String(i).padStart(4, "0")}.txt`), `file ${i}\n`);
  }
  git(workspace, "init", "-q", "-b", "main");
  git(workspace, "add", "-A");
  git(workspace, "-c", "user.name=User", "-c", "user.email=user@example.invalid", "commit", "-qm", "3,000 files");
  return { root, workspace };
}

/** Disk use in bytes as du counts it (blocks), leaving out `.git` when asked. */
function du(dir: string, withoutGit = false): number {
  if (!existsSync(dir)) return 0;
  const args = ["-sk", ...(withoutGit ? ["--exclude=.git"] : []), dir];
  return Number(execFileSync("du", args, { encoding: "utf8" }).split("\t")[0]) * 1024;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** The folders under a state dir's worktree root (`worktrees/<repo key>/<swarm>/`): the view and agents' trees. */
function worktreeFolders(stateDir: string, swarm: string): string[] {
  const root = path.join(stateDir, "worktrees");
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((key) => {
    const dir = path.join(root, key, swarm);
    return existsSync(dir) ? readdirSync(dir).sort() : [];
  });
}

async function runSwarm(
  options: Pick<
    SwarmRunOptions,
    "swarmId" | "goal" | "recipe" | "workspace" | "stateDir" | "sparseCheckoutAboveMiB"
  > & {
    agents?: number;
  },
  script: TurnScript,
  events: SwarmEvent[],
): Promise<SwarmSummary> {
  const session = new SwarmSession(
    {
      ...options,
      modelPath: sharedModelPath("tiny-random-qwen2-chatml.gguf"),
      threads: 2,
      kvCells: 16_384,
      script,
      approver: denyAllApprover,
      policy: defaultPolicyRules,
    },
    (e) => events.push(e),
  );
  const t0 = Date.now();
  const summary = await session.run();
  const started = ofType(events, "swarm-started")[0];
  const ended = ofType(events, "swarm-ended")[0];
  console.log(
    `      ${options.swarmId}: set-up ${(((started?.time ?? t0) - t0) / 1000).toFixed(1)} s (trunk ${started?.trunkTokens} tokens), ` +
      `agents ${(((ended?.time ?? t0) - (started?.time ?? t0)) / 1000).toFixed(1)} s`,
  );
  return summary;
}

/** The organisation swarms' two agents that write nothing: agent-3 only reads and reports, agent-4 finds no work. */
const readersOfTheOrganisation = {
  "agent-3": [
    { tool: "search", args: { pattern: "file 7$" } },
    { tool: "post_finding", args: { kind: "OBSERVED", text: "file 7 holds its number" } },
    { tool: "finish", args: { summary: "read" } },
  ],
  "agent-4": [{ tool: "finish", args: { summary: "nothing left for me" } }],
};
describe("worktrees that scale: a 3,000-file repository on the real runtime (the tiny ChatML test model)", function () {
  let repo: { root: string; workspace: string };
  let checkout = 0;

  before(() => {
    repo = bigRepo();
    checkout = du(repo.workspace, true);
    console.log(`      repository: ${FILES} files, checkout ${mib(checkout)} on disk (du, without .git)`);
  });

  describe(`a research swarm of ${RESEARCHERS} researchers and a synthesist`, () => {
    const events: SwarmEvent[] = [];
    let summary: SwarmSummary;
    const stateDir = () => path.join(repo.root, "research-state");

    before(async () => {
      const researcher = (n: number) => [
        ...(n === 1 ? [{ tool: "claim", args: { scope: { taskId: "angle: d01" }, text: "folder d01" } }] : []),
        { tool: "read_file", args: { path: `d${String(n % 30).padStart(2, "0")}/f${String(n).padStart(4, "0")}.txt` } },
        { tool: "post_finding", args: { kind: "FACT", text: `file ${n} holds its number` } },
        { tool: "finish", args: { summary: "read one file" } },
      ];
      const agents: TurnScript["agents"] = {
        synthesist: [{ tool: "write_report", args: { title: "Files", body: "each file holds its number" } }],
      };
      for (let n = 1; n <= RESEARCHERS; n++) agents[`agent-${n}`] = researcher(n);
      const before = du(stateDir());
      summary = await runSwarm(
        {
          swarmId: "scale-research",
          goal: "What do the files hold?",
          recipe: builtinRecipes().get("research")!,
          agents: RESEARCHERS,
          workspace: repo.workspace,
          stateDir: stateDir(),
        },
        { agents },
        events,
      );
      const worktrees = du(path.join(stateDir(), "worktrees"));
      console.log(
        `      research: state dir ${mib(before)} before, ${mib(du(stateDir()))} after; worktrees ${mib(worktrees)} ` +
          `(${(worktrees / checkout).toFixed(2)}x one checkout) for ${summary.agents.length} agents`,
      );
    });

    it("ends completed with every researcher and the synthesist done", () => {
      assert.equal(summary.outcome, "completed", summary.reason);
      assert.equal(summary.agents.length, RESEARCHERS + 1);
      for (const a of summary.agents) assert.equal(a.end.outcome, "done", `${a.id}: ${a.end.reason}`);
      const facts = ofType(events, "board-entry").filter((e) => e.entry.kind === "FACT");
      assert.equal(facts.length, RESEARCHERS, "every researcher read its file and posted what it holds");
    });

    it("adds at most one checkout's worth of disk: one shared view, no agent worktree, no agent branch", () => {
      assert.deepEqual(worktreeFolders(stateDir(), "scale-research"), [".read-view"]);
      const worktrees = du(path.join(stateDir(), "worktrees"));
      // The view's own `.git` file and folder entries are the margin: 5% of the checkout.
      assert.ok(worktrees <= checkout * 1.05, `worktrees ${worktrees} B against one checkout of ${checkout} B`);
      const branches = git(repo.workspace, "for-each-ref", "--format=%(refname:short)", "refs/heads/swarmboard/");
      assert.deepEqual(branches.split("\n"), ["swarmboard/scale-research/main"], "readers make no branches");
      for (const a of summary.agents) assert.equal(a.branch, undefined, `${a.id} has no branch`);
    });

    it("says at launch what the swarm will take on disk", () => {
      const started = ofType(events, "swarm-started")[0];
      assert.ok(started?.disk, "the swarm-started event carries the estimate");
      assert.equal(started.disk.writers, 0);
      assert.equal(started.disk.estimateBytes, started.disk.checkoutBytes);
      // The estimate counts whole 4 KiB blocks per file, as du does (folders and the .git file aside).
      assert.ok(Math.abs(started.disk.checkoutBytes - checkout) <= checkout * 0.05, JSON.stringify(started.disk));
      assert.match(started.disk.text, /1 checkout\(s\) of .*: the shared read view and 0 writing agents/);
    });
  });

  describe("an organisation swarm: two agents claim or write, two only read", () => {
    const events: SwarmEvent[] = [];
    let summary: SwarmSummary;
    const stateDir = () => path.join(repo.root, "org-state");

    before(async () => {
      const recipe = organisationRecipe();
      const script: TurnScript = {
        agents: {
          // Reads, then claims: its worktree is made by the claim (it never writes).
          "agent-1": [
            { tool: "read_file", args: { path: "d00/f0000.txt" } },
            { tool: "claim", args: { scope: { paths: ["d00/f0000.txt"] }, text: "number file 0" } },
            { tool: "finish", args: { summary: "claimed file 0" } },
          ],
          // Writes without a claim: its first write makes its worktree.
          "agent-2": [
            { tool: "write_file", args: { path: "d01/new.txt", content: "new\n" } },
            { tool: "commit", args: { message: "Add a file" } },
            { tool: "finish", args: { summary: "added a file" } },
          ],
          ...readersOfTheOrganisation,
          synthesist: [{ tool: "write_report", args: { title: "Work", body: "file 0 claimed, one file added" } }],
        },
      };
      summary = await runSwarm(
        {
          swarmId: "scale-org",
          goal: "Name the files",
          recipe,
          workspace: repo.workspace,
          stateDir: stateDir(),
        },
        script,
        events,
      );
      const worktrees = du(path.join(stateDir(), "worktrees"));
      console.log(
        `      organisation: worktrees ${mib(worktrees)} (${(worktrees / checkout).toFixed(2)}x one checkout) ` +
          `for ${summary.agents.length} agents, 2 of them writing; folders: ${worktreeFolders(stateDir(), "scale-org").join(", ")}`,
      );
    });

    it("ends completed with every agent done", () => {
      assert.equal(summary.outcome, "completed", summary.reason);
      for (const a of summary.agents) assert.equal(a.end.outcome, "done", `${a.id}: ${a.end.reason}`);
    });

    it("made worktrees only for the agents that claimed or wrote, plus the one shared view", () => {
      assert.deepEqual(worktreeFolders(stateDir(), "scale-org"), [".read-view", "agent-1", "agent-2"]);
      const branches = new Map(summary.agents.map((a) => [a.id, a.branch]));
      assert.equal(branches.get("agent-1"), "swarmboard/scale-org/agent-1");
      assert.equal(branches.get("agent-2"), "swarmboard/scale-org/agent-2");
      for (const id of ["agent-3", "agent-4", "synthesist-5"]) assert.equal(branches.get(id), undefined, id);
      assert.equal(git(repo.workspace, "show", "swarmboard/scale-org/agent-2:d01/new.txt"), "new");
      const worktrees = du(path.join(stateDir(), "worktrees"));
      assert.ok(worktrees <= checkout * 3 * 1.05, `three checkouts at most: ${worktrees} B (one is ${checkout} B)`);
    });

    it("estimated the view plus one checkout per writer, and left the user's checkout alone", () => {
      const started = ofType(events, "swarm-started")[0];
      assert.equal(started?.disk?.writers, 4, "four workers may write; the synthesist only reads");
      assert.equal(started?.disk?.estimateBytes, 5 * started!.disk!.checkoutBytes);
      assert.equal(git(repo.workspace, "status", "--porcelain"), "");
      assert.equal(git(repo.workspace, "show", "HEAD:d00/f0000.txt"), "file 0");
      assert.ok(!existsSync(path.join(repo.workspace, "d01/new.txt")), "the agent's file is only on its branch");
    });
  });

  // The launch's threshold (the setting, --sparse-above-mib) wins over the recipe's, which alone would keep them full.
  describe("the same organisation swarm on sparse worktrees (the launch's threshold at 0 MiB over the recipe's)", () => {
    const events: SwarmEvent[] = [];
    let summary: SwarmSummary;
    const stateDir = () => path.join(repo.root, "sparse-state");
    const tree = (agent: string) =>
      path.join(stateDir(), "worktrees", readdirSync(path.join(stateDir(), "worktrees"))[0]!, "scale-sparse", agent);
    const filesIn = (dir: string) =>
      execFileSync("find", [".", "-path", "./.git", "-prune", "-o", "-type", "f", "-print"], {
        cwd: dir,
        encoding: "utf8",
      })
        .split("\n")
        .filter(Boolean).length;

    before(async () => {
      const base = organisationRecipe();
      const recipe = { ...base, budgets: { ...base.budgets, sparseCheckoutAboveMiB: 100_000 } };
      const script: TurnScript = {
        agents: {
          // Claims one folder, edits a file there, reads one elsewhere (that folder comes in), merges.
          "agent-1": [
            { tool: "claim", args: { scope: { paths: ["d03"] }, text: "folder d03" } },
            {
              tool: "edit_file",
              args: { path: "d03/f0003.txt", edits: [{ search: "file 3", replace: "file three" }] },
            },
            { tool: "read_file", args: { path: "d04/f0004.txt" } },
            { tool: "commit", args: { message: "Spell out three" } },
            { tool: "merge_progress", args: {} },
            { tool: "finish", args: { summary: "spelled out three" } },
          ],
          // Writes without a claim: a new file in a folder its cone does not hold.
          "agent-2": [
            { tool: "write_file", args: { path: "d05/new.txt", content: "new\n" } },
            { tool: "commit", args: { message: "Add a file" } },
            { tool: "merge_progress", args: {} },
            { tool: "finish", args: { summary: "added a file" } },
          ],
          ...readersOfTheOrganisation,
          synthesist: [{ tool: "write_report", args: { title: "Work", body: "three spelled out, one file added" } }],
        },
      };
      summary = await runSwarm(
        {
          swarmId: "scale-sparse",
          goal: "Name the files",
          recipe,
          workspace: repo.workspace,
          stateDir: stateDir(),
          sparseCheckoutAboveMiB: 0,
        },
        script,
        events,
      );
      console.log(
        `      sparse organisation: worktrees ${mib(du(path.join(stateDir(), "worktrees")))}; files on disk: ` +
          `agent-1 ${filesIn(tree("agent-1"))}, agent-2 ${filesIn(tree("agent-2"))}, the read view ${filesIn(tree(".read-view"))}`,
      );
    });

    it("ends completed, both writers' work merged into the integration branch", () => {
      assert.equal(summary.outcome, "completed", summary.reason);
      for (const a of summary.agents) assert.equal(a.end.outcome, "done", `${a.id}: ${a.end.reason}`);
      assert.equal(git(repo.workspace, "show", "swarmboard/scale-sparse/main:d03/f0003.txt"), "file three");
      assert.equal(git(repo.workspace, "show", "swarmboard/scale-sparse/main:d05/new.txt"), "new");
      const tracked = git(repo.workspace, "ls-tree", "-r", "--name-only", "swarmboard/scale-sparse/main");
      assert.equal(tracked.split("\n").length, FILES + 1, "nothing outside the cones was lost");
    });

    it("gave each writer only its folders: a claimed one, one it read, one it wrote", () => {
      const perFolder = FILES / 30;
      assert.equal(filesIn(tree("agent-1")), 2 * perFolder, "d03 (claimed) and d04 (read)");
      assert.equal(filesIn(tree("agent-2")), perFolder + 1, "d05, where it wrote");
      assert.equal(filesIn(tree(".read-view")), FILES + 1, "the shared view stays whole (and follows the merges)");
      assert.equal(git(tree("agent-1"), "status", "--porcelain"), "");
    });

    it("said at launch what sparse saves, and left the user's checkout alone", () => {
      const started = ofType(events, "swarm-started")[0];
      assert.match(started?.disk?.text ?? "", /sparse worktrees \(one checkout, .* is above 0 MiB\)/);
      assert.match(started?.disk?.text ?? "", /instead of .* \(saves /);
      assert.equal(git(repo.workspace, "status", "--porcelain"), "");
      assert.ok(!existsSync(path.join(repo.workspace, "d05/new.txt")));
    });
  });
});
