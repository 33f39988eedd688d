// Bad input files and flags are refused before anything starts, as a user meets them with the built CLI: a
// missing, non-JSON or wrong-schema --script, an --events that is a folder, a watch's missing --triggers, a
// damaged events file given to replay-script, and a bad `mcp --workspace`. Each exits 2 with a message that
// names the file and what is wrong (no stack, no raw ENOENT, no zod dump) and leaves no state dir, branch or
// registry record behind.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { cleanRepo, git, removeDir, tempDir, write } from "../workspace/gitFixture";
import { ownServerFolder, serverPidsIn } from "../../serverFolder";

const cli = path.resolve(__dirname, "../../../../dist/cli/main.js");

function runCli(...args: string[]) {
  assert.ok(existsSync(cli), `${cli} is missing: run npm run build first`);
  const env = { ...process.env, SWARMBOARD_MODEL: "" };
  const out = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", input: "", env, timeout: 60_000 });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

describe("cli: input files and flags checked before anything starts", function () {
  this.timeout(120_000);
  // Refused before a server is asked; were one started anyway, it would be this suite's own.
  const serverFolder = ownServerFolder();
  let repoDir = "";
  let dir = "";
  let stateDir = "";
  let model = "";
  beforeEach(() => {
    repoDir = cleanRepo();
    git(repoDir, "config", "user.name", "Test User");
    git(repoDir, "config", "user.email", "user@example.invalid");
    dir = tempDir("inputs");
    stateDir = path.join(dir, "state");
    // A model file that exists: scripted runs do not ask it about tool calling, and nothing may load it here.
    model = path.join(dir, "model.gguf");
    writeFileSync(model, "GGUF\u0003\u0000\u0000\u0000 not a real model");
  });
  afterEach(() => {
    removeDir(repoDir);
    removeDir(dir);
    assert.deepEqual(serverPidsIn(serverFolder.dir), [], "bad input started no server");
  });

  /** Exit 2, the message on stderr, and nothing left behind: no state dir, no swarm branch, no registry record. */
  function assertRefused(out: ReturnType<typeof runCli>, message: RegExp): void {
    assert.equal(out.status, 2, `exit 2 expected:\n${out.stdout}\n${out.stderr}`);
    assert.match(out.stderr, message);
    assert.doesNotMatch(out.stderr, /\n\s+at |ENOENT|EISDIR|ZodError|"code":|Unexpected token/);
    assert.equal(existsSync(stateDir), false, "no state dir is left");
    assert.equal(git(repoDir, "for-each-ref", "refs/heads/swarmboard/"), "", "no swarm branch is left");
    const listed = runCli("list", "--workspace", repoDir);
    assert.match(listed.stdout, /No swarms are recorded/, "no swarm is listed");
  }

  const run = (...extra: string[]) =>
    runCli("run", "--goal", "g", "--workspace", repoDir, "--model", model, "--state-dir", stateDir, ...extra);

  it("run --script: a missing file", () => {
    const missing = path.join(dir, "missing.json");
    assertRefused(
      run("--script", missing),
      new RegExp(`--script ${missing}: there is no such file\\. Give --script a turn script`),
    );
  });

  it("run --script: a file that is not JSON", () => {
    write(dir, "broken.json", '{"agents": {');
    assertRefused(
      run("--script", path.join(dir, "broken.json")),
      /--script .*broken\.json is not JSON \(.*\)\. Give --script a turn script/,
    );
  });

  it("run --script: JSON that is not a turn script", () => {
    write(dir, "wrong.json", JSON.stringify({ agent: [] }));
    assertRefused(
      run("--script", path.join(dir, "wrong.json")),
      /--script .*wrong\.json is not a turn script .*: agents: /,
    );
  });

  it("run --events: a folder", () => {
    const folder = path.join(dir, "trace");
    mkdirSync(folder);
    write(dir, "ok.json", JSON.stringify({ agents: {} }));
    assertRefused(
      run("--script", path.join(dir, "ok.json"), "--events", folder),
      new RegExp(`--events ${folder} is a folder: give --events a file`),
    );
  });

  it("watch --triggers: a missing file, refused before the model is looked at", () => {
    const missing = path.join(dir, "triggers.jsonl");
    const out = runCli(
      "watch",
      "--workspace",
      repoDir,
      "--model",
      model,
      "--state-dir",
      stateDir,
      "--triggers",
      missing,
    );
    assertRefused(out, new RegExp(`--triggers ${missing}: there is no such file`));
    assert.equal(out.stdout, "", "nothing started");
  });

  it("watch --trigger-rules: rules that fail their schema are refused before a state dir is written", () => {
    write(dir, "rules.json", JSON.stringify({ sources: 3 }));
    const bad = runCli(
      "watch",
      "--workspace",
      repoDir,
      "--model",
      model,
      "--state-dir",
      stateDir,
      "--trigger-rules",
      path.join(dir, "rules.json"),
    );
    assertRefused(bad, /--trigger-rules .*rules\.json is not a JSON file of trigger rules/);
  });

  it("replay-script: a damaged events file is refused with the file and the line", () => {
    const events = path.join(dir, "events.jsonl");
    writeFileSync(events, '\n{"type":"swarm-ended"\n{}\n');
    const out = runCli("replay-script", events);
    assert.equal(out.status, 2, out.stderr);
    assert.match(out.stderr, new RegExp(`${events}:2 is not JSON \\(.*\\): the events file is damaged there`));
    const missing = runCli("replay-script", path.join(dir, "none.jsonl"));
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /none\.jsonl does not exist: give replay-script a run's events file/);
  });

  it("replay-script: a torn last line (a killed run) is skipped with a warning", () => {
    const events = path.join(dir, "events.jsonl");
    writeFileSync(events, '{"type":"swa');
    const out = runCli("replay-script", events);
    assert.equal(out.status, 0, out.stderr);
    assert.match(out.stderr, new RegExp(`warning: ${events}:1 is a torn last line`));
    assert.deepEqual(JSON.parse(out.stdout), { agents: {} });
  });

  it("mcp --workspace: a folder that does not exist is refused at start, not at each launch", () => {
    const missing = path.join(dir, "no-such-repo");
    const out = runCli("mcp", "--workspace", missing, "--state-root", stateDir);
    assert.equal(out.status, 2, out.stderr);
    assert.match(
      out.stderr,
      new RegExp(`The workspace ${missing} does not exist: give --workspace the folder of a git repository`),
    );
    assert.doesNotMatch(out.stderr, /internal|serving on stdio/);
    assert.equal(existsSync(stateDir), false);
    const notRepo = runCli("mcp", "--workspace", dir, "--state-root", stateDir);
    assert.equal(notRepo.status, 2, notRepo.stderr);
    assert.doesNotMatch(notRepo.stderr, /serving on stdio/);
  });
});
