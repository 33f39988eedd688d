// Done-when: the command policy judges paths after the shell's expansion. Against a real repository (a token in
// its remote URL, an ignored .env in the user's checkout), a real agent worktree and a fake home with keys: each
// expansion form (`~`, `..`, `?`, `*`, `{a,b}`, `$VAR`, `$(...)`) that reaches a secret, a protected or an outside
// path is denied or asked, never allowed, and the statically known secrets are denied; a fuzz test over generated
// command lines of these forms finds none allowed; run through the agent's tool, none of the reads happens.
import { callTool } from "./callTool";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { approveAllApprover } from "../../../src/workspace/approvals";
import type { BubblewrapProbe } from "../../../src/workspace/bubblewrap";
import type { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { swarmCommandPolicy } from "../../../src/workspace/repositoryProtection";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { cleanRepo, git, removeDir, tempDir } from "./gitFixture";

const rules = {
  allow: ["cat", "grep", "head", "ls", "wc", "echo", "git diff", "git log", "git status"],
  ask: [],
  deny: [],
};

describe("workspace: the command policy judges paths after expansion", function () {
  this.timeout(120_000);
  let repoDir = "";
  let stateDir = "";
  let home = "";
  const realHome = process.env.HOME;
  let policy: CommandPolicy;
  let ws: AgentWorkspace;
  let wt = "";
  const verdict = (command: string) => policy.evaluate(command, { cwd: wt });

  before(async () => {
    repoDir = cleanRepo();
    git(repoDir, "remote", "add", "origin", "https://user:pe-remote-token@example.invalid/r.git");
    git(repoDir, "config", "core.hooksPath", ".husky");
    writeFileSync(path.join(repoDir, ".gitignore"), "build/\n*.log\n.env*\n");
    writeFileSync(path.join(repoDir, ".env"), "API=pe-dotenv\n");
    writeFileSync(path.join(repoDir, ".env.local"), "API=pe-dotenv-local\n");
    stateDir = tempDir("state");
    home = tempDir("home");
    for (const [rel, text] of [
      [".ssh/id_rsa", "pe-private-key"],
      [".aws/credentials", "pe-aws"],
      [".git-credentials", "https://u:pe-gitcred@example.invalid"],
      [".config/gh/hosts.yml", "pe-gh"],
    ]) {
      mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
      writeFileSync(path.join(home, rel), `${text}\n`);
    }
    process.env.HOME = home;
    const repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: "pe" });
    await repo.start({ includeUncommitted: false });
    policy = await swarmCommandPolicy(repo, rules);
    const none: BubblewrapProbe = { usable: false, installed: true, reason: "approved runs without the sandbox" };
    ws = await AgentWorkspace.open(repo, "a1", { policy, approver: approveAllApprover, sandbox: none });
    wt = ws.worktree.path;
  });
  after(() => {
    process.env.HOME = realHome;
    for (const dir of [repoDir, stateDir, home]) removeDir(dir);
  });

  it("allows ordinary reads inside the worktree (control: not everything is refused)", () => {
    for (const cmd of [
      "cat README.md",
      "grep -rn add src",
      "ls src/*.ts",
      "cat ./src/../README.md",
      "wc -l src/{app,lib}.ts",
    ])
      assert.equal(verdict(cmd).decision, "allow", `${cmd}: ${verdict(cmd).reasons.join("; ")}`);
  });

  it("is built from the repository's protected paths, its hooks path included", () => {
    for (const cmd of ["echo x > .husky/pre-commit", "echo x > .hus?y/pre-commit", "echo x > .{husky,y}/pre-commit"])
      assert.equal(verdict(cmd).decision, "deny", `${cmd}: ${verdict(cmd).reasons.join("; ")}`);
    assert.equal(verdict("ls .husky").decision, "ask");
  });

  it("denies reads of secrets named through every expansion form", () => {
    const rel = path.relative(wt, repoDir);
    const denied = [
      "cat ~/.ssh/id_rsa",
      "cat $HOME/.aws/credentials",
      'cat "${HOME}/.git-credentials"',
      "grep -r token ~/.config/gh",
      `cat ${repoDir}/.git/config`,
      `cat ${repoDir}/.g?t/config`,
      `cat ${repoDir}/.{git,x}/config`,
      `cat ${repoDir}/.git/conf*`,
      `cat ${rel}/.git/config`,
      `cat ${rel}/.env`,
      `grep -r API ${repoDir}/.e*`,
      `git diff --no-index ${repoDir}/.env README.md`,
      `cat ${repoDir}/.env.local`,
      "cat /proc/self/environ",
      "cat /proc/*/environ",
      "head -c 200 /proc/1/environ",
      "ls /proc/self/root/",
      "cat ~/.ss?/id_*",
      "cat ~/.{ssh,x}/id_rsa",
      "cat src/../../../../../../../../../../etc/shadow",
    ];
    for (const cmd of denied) assert.equal(verdict(cmd).decision, "deny", `${cmd}: ${verdict(cmd).reasons.join("; ")}`);
  });

  it("never allows a path whose value is only known at run time, or one outside the worktree", () => {
    const rel = path.relative(wt, repoDir);
    for (const cmd of [
      "cat $(echo ~)/.ssh/id_rsa",
      "cat $X/.ssh/id_rsa",
      'cat "$(git rev-parse --git-common-dir)/config"',
      `cat ${rel}/README.md`,
      `ls ${repoDir}`,
      "ls ~",
      "ls ~root",
      "cat ../a2/README.md",
      "ls /",
      "echo x > .vscode/settings.json",
      "cat .git/config",
      "cat .g?t/config",
    ])
      assert.notEqual(verdict(cmd).decision, "allow", `${cmd}: ${verdict(cmd).reasons.join("; ")}`);
  });

  it("refuses the reads when an agent runs them, even with every approval granted", async () => {
    for (const cmd of [
      "cat ~/.ssh/id_rsa",
      `cat ${repoDir}/.g?t/config`,
      `cat ${repoDir}/.env`,
      "cat /proc/self/environ",
    ]) {
      const out = await callTool(ws, "run_command", { command: cmd });
      assert.ok(out.ok, JSON.stringify(out));
      assert.equal(out.result.ran, false, `${cmd} ran: ${out.result.output}`);
      assert.equal(out.result.decision, "deny");
      assert.doesNotMatch(out.result.output, /pe-/);
    }
  });

  it("allows no generated command line that reaches a secret or protected path (property)", () => {
    const targets = [
      path.join(home, ".ssh/id_rsa"),
      path.join(home, ".aws/credentials"),
      path.join(repoDir, ".git/config"),
      path.join(repoDir, ".env"),
      "/proc/self/environ",
      path.join(wt, ".git/config"),
      path.join(wt, ".vscode/settings.json"),
    ];
    const programs = ["cat", "grep -r x", "head -n 3", "ls", "wc -l", "git diff --no-index README.md", "echo x >"];
    const forms = ["plain", "relative", "tilde", "home", "homeBraced", "question", "star", "brace", "subst", "var"];
    fc.assert(
      fc.property(
        fc.constantFrom(...targets),
        fc.constantFrom(...programs),
        fc.array(fc.constantFrom(...forms), { minLength: 1, maxLength: 3 }),
        fc.nat(),
        (target, program, chain, seed) => {
          let word = target;
          for (const form of chain) word = transform(word, form, seed, home, wt);
          const v = verdict(`${program} ${word}`);
          return v.decision !== "allow";
        },
      ),
      { numRuns: 600 },
    );
  });
});

/** One expansion form applied to a path word; forms that do not fit the word leave it as it is. */
function transform(word: string, form: string, seed: number, home: string, wt: string): string {
  const segs = word.split("/");
  const at = 1 + (seed % Math.max(segs.length - 1, 1));
  const seg = segs[at] ?? "";
  // Globs go into plain names only: a glob cut into a brace or a substitution breaks it, and the shell then
  // passes the word on literally (harmless, and no longer the form under test).
  const plain = /^[\w.-]{2,}$/.test(seg);
  const withSeg = (s: string) => [...segs.slice(0, at), s, ...segs.slice(at + 1)].join("/");
  switch (form) {
    case "relative":
      return word.startsWith("/") ? path.relative(wt, word) || "." : word;
    case "tilde":
      return word.startsWith(`${home}/`) ? `~${word.slice(home.length)}` : word;
    case "home":
      return word.startsWith(`${home}/`) ? `$HOME${word.slice(home.length)}` : word;
    case "homeBraced":
      return word.startsWith(`${home}/`) ? `"\${HOME}"${word.slice(home.length)}` : word;
    case "question":
      return plain ? withSeg(`${seg.slice(0, seed % seg.length)}?${seg.slice((seed % seg.length) + 1)}`) : word;
    case "star":
      return plain ? withSeg(`${seg.slice(0, 1 + (seed % (seg.length - 1)))}*`) : word;
    case "brace":
      return seg ? withSeg(seed % 2 ? `{${seg},zz}` : `{zz,${seg}}`) : word;
    case "subst":
      return `$(echo ${path.dirname(word)})/${path.basename(word)}`;
    case "var":
      return `$X${word}`;
    default:
      return word;
  }
}
