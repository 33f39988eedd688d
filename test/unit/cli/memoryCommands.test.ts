// `swarmboard memory list | search | delete` as a user runs them (the real CLI process on a real repository whose
// memory holds two findings, one of them stale at HEAD): the list with status and provenance, a search ranked by
// BM25, a delete by id, an unknown id refused with exit 2, and a malformed id refused with the usage.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Memory } from "../../../src/protocol/memory";
import { RepositoryMemory } from "../../../src/workspace/repositoryMemory";
import { cleanRepo, git, removeDir, write } from "../workspace/gitFixture";

const cli = path.resolve(__dirname, "../../../../dist/cli/main.js");

function runCli(cwd: string, ...args: string[]) {
  assert.ok(existsSync(cli), `${cli} is missing: run npm run build first`);
  const out = spawnSync(process.execPath, [cli, ...args], {
    cwd,
    encoding: "utf8",
    timeout: 60_000,
    killSignal: "SIGKILL",
  });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

function memoryAt(repo: string, id: string, file: string, text: string): Memory {
  return {
    id,
    kind: "FACT",
    text,
    refs: [{ path: file, line: 1 }],
    files: [{ path: file, blob: git(repo, "rev-parse", `HEAD:${file}`).trim() }],
    swarmId: "research-20261201-070112-ab12",
    goal: "learn the code",
    agent: "agent-2",
    entryId: `e-${id}`,
    postedAt: Date.parse("2026-12-01T07:05:00Z"),
    commit: git(repo, "rev-parse", "HEAD").trim(),
    rememberedAt: Date.parse("2026-12-01T07:10:00Z"),
  };
}

describe("cli: memory list, search and delete", function () {
  this.timeout(60_000);
  let repo = "";
  const add = "m-0000000000a1";
  const answer = "m-0000000000b2";
  beforeEach(async () => {
    repo = cleanRepo();
    const store = await RepositoryMemory.forRepository(repo);
    await store.add([
      memoryAt(repo, add, "src/lib.ts", "add(a, b) returns the sum of two numbers"),
      memoryAt(repo, answer, "src/app.ts", "the answer constant is 42"),
    ]);
    write(repo, "src/app.ts", "export const answer = 43;\n");
    git(repo, "commit", "-qam", "change the answer");
  });
  afterEach(() => removeDir(repo));

  it("lists every memory with its status at HEAD and where it came from", () => {
    const out = runCli(path.join(repo, "src"), "memory", "list");
    assert.equal(out.status, 0, out.stderr);
    assert.match(
      out.stdout,
      new RegExp(
        `${add}  FACT  valid\\n    from:  swarm research-20261201-070112-ab12, agent-2, 2026-12-01T07:05:00.000Z\\n    files: src/lib.ts@[0-9a-f]{7}\\n    text:  add\\(a, b\\) returns the sum of two numbers`,
      ),
    );
    assert.match(out.stdout, new RegExp(`${answer}  FACT  STALE \\(changed: src/app.ts\\)`));
    assert.match(out.stdout, /2 memories \(1 stale at HEAD [0-9a-f]{10}\) in .*memory\.jsonl/);
  });

  it("searches by words, best first, and says when nothing matches", () => {
    const found = runCli(repo, "memory", "search", "sum", "of", "numbers", "--workspace", repo);
    assert.equal(found.status, 0, found.stderr);
    assert.ok(found.stdout.startsWith(`${add}  FACT  valid`), found.stdout);
    assert.ok(!found.stdout.includes(answer), "the memory without those words is not listed");
    const none = runCli(repo, "memory", "search", "zebra");
    assert.equal(none.status, 0);
    assert.match(none.stdout, /No memory shares a word with "zebra"/);
  });

  it("deletes by id, and refuses an unknown or malformed id with exit 2", () => {
    const deleted = runCli(repo, "memory", "delete", answer);
    assert.equal(deleted.status, 0, deleted.stderr);
    assert.equal(deleted.stdout, `Deleted ${answer}.\n`);
    const listed = runCli(repo, "memory", "list");
    assert.ok(!listed.stdout.includes(answer) && listed.stdout.includes(add), listed.stdout);
    const again = runCli(repo, "memory", "delete", answer);
    assert.equal(again.status, 2);
    assert.match(
      again.stderr,
      new RegExp(`No memory ${answer} in this repository; \`swarmboard memory list\` shows the ids`),
    );
    const malformed = runCli(repo, "memory", "delete", "42");
    assert.equal(malformed.status, 2);
    assert.match(malformed.stderr, /"42" is not a memory id/);
    const unknownSub = runCli(repo, "memory", "forget");
    assert.equal(unknownSub.status, 2);
    assert.match(unknownSub.stderr, /memory expects `list`, `search <words>` or `delete <memory-id>...`/);
  });
});
