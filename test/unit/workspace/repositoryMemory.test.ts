// The repository's memory file on a real git repository: kept beside the registry in the git common dir, written
// whole under a lock; a torn last line dropped, a bad line skipped and reported, the rest kept; duplicates by id
// and by content not added twice; delete by id; and memories judged by the git blobs of their files.
import assert from "node:assert/strict";
import { appendFileSync, existsSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Memory } from "../../../src/protocol/memory";
import { blobsAt, judgeMemories } from "../../../src/workspace/memoryBlobs";
import { RepositoryMemory } from "../../../src/workspace/repositoryMemory";
import { cleanRepo, git, removeDir, write } from "./gitFixture";

function memoryOf(repo: string, id: string, file: string, text: string): Memory {
  const head = git(repo, "rev-parse", "HEAD").trim();
  return {
    id: `m-${id.padStart(12, "0")}`,
    kind: "FACT",
    text,
    refs: [{ path: file, line: 1 }],
    files: [{ path: file, blob: git(repo, "rev-parse", `HEAD:${file}`).trim() }],
    swarmId: "organization-20261201-070112-ab12",
    goal: "learn the lib",
    agent: "agent-1",
    entryId: `e-${id}`,
    postedAt: 1_000,
    commit: head,
    rememberedAt: 2_000,
  };
}

describe("repository memory store", () => {
  let repo = "";
  beforeEach(() => (repo = cleanRepo()));
  afterEach(() => removeDir(repo));

  it("lives in the git common dir, found from any folder of the repository", async () => {
    const store = await RepositoryMemory.forRepository(path.join(repo, "src"));
    const commonDir = path.resolve(repo, git(repo, "rev-parse", "--git-common-dir").trim());
    assert.equal(store.file, path.join(commonDir, "swarmboard", "memory.jsonl"));
    assert.deepEqual(await store.read(), { memories: [], problems: [] });
  });

  it("adds memories once by id and by content, and deletes by id", async () => {
    const store = await RepositoryMemory.forRepository(repo);
    const a = memoryOf(repo, "a", "src/lib.ts", "add() returns the sum");
    const b = memoryOf(repo, "b", "src/app.ts", "answer is 42");
    assert.equal(await store.add([a, b]), 2);
    const sameText = { ...a, id: "m-00000000000c", swarmId: "later-swarm", entryId: "e-c" };
    assert.equal(await store.add([a, sameText]), 0, "the same id and the same finding are not added again");
    assert.deepEqual(
      (await store.read()).memories.map((m) => m.id),
      [a.id, b.id],
    );
    assert.deepEqual(await store.delete([a.id, "m-0000000000ff"]), {
      deleted: [a.id],
      unknown: ["m-0000000000ff"],
      problems: [],
    });
    const after = readFileSync(store.file, "utf8");
    assert.ok(!after.includes("add() returns the sum"), "a deleted memory's text is gone from the disk");
    assert.deepEqual(
      (await store.read()).memories.map((m) => m.id),
      [b.id],
    );
    assert.ok(!existsSync(`${store.file}.lock`), "the lock is released");
  });

  it("skips a bad line and a torn last line, reports both, and a delete keeps them in the file", async () => {
    const store = await RepositoryMemory.forRepository(repo);
    const a = memoryOf(repo, "a", "src/lib.ts", "add() returns the sum");
    const b = memoryOf(repo, "b", "src/app.ts", "answer is 42");
    await store.add([a]);
    const bad = '{"id":"m-000000000bad","kind":"FACT"}';
    const newer = JSON.stringify({ ...b, id: "m-0000000000ee", kind: "VERDICT" });
    const torn = JSON.stringify(b).slice(0, 40);
    appendFileSync(store.file, bad + "\n");
    appendFileSync(store.file, JSON.stringify(b) + "\n");
    appendFileSync(store.file, newer + "\n");
    appendFileSync(store.file, torn);
    const read = await store.read();
    assert.deepEqual(
      read.memories.map((m) => m.id),
      [a.id, b.id],
    );
    assert.equal(read.problems.length, 3);
    assert.match(read.problems[0]!, /line 2 is not a memory and was skipped .*; it is kept in the file/);
    assert.match(read.problems[1]!, /line 4 is not a memory/);
    assert.match(read.problems[2]!, /last line \(line 5\) has no line end .* kept in the file/);
    // The next change rewrites the file whole: the deleted memory is gone, the unreadable lines and the torn
    // tail are carried over unchanged (the torn tail last), and the delete says so.
    const out = await store.delete([a.id]);
    assert.deepEqual(out.deleted, [a.id]);
    assert.equal(out.problems.length, 3);
    const text = readFileSync(store.file, "utf8");
    assert.equal(text, JSON.stringify(b) + "\n" + bad + "\n" + newer + "\n" + torn);
    assert.ok(!text.includes("add() returns the sum"), "a deleted memory's text is gone from the disk");
    // And through a second rewrite too.
    await store.add([a]);
    assert.ok(readFileSync(store.file, "utf8").endsWith(bad + "\n" + newer + "\n" + torn));
  });

  it("waits for another writer's lock and takes over a stale one", async () => {
    const store = await RepositoryMemory.forRepository(repo);
    await store.add([]);
    writeFileSync(`${store.file}.lock`, "");
    const released = new Promise((resolve) => setTimeout(resolve, 300)).then(() => rmSync(`${store.file}.lock`));
    const added = store.add([memoryOf(repo, "e", "src/app.ts", "written after the other writer")]);
    assert.equal(await added, 1, "the add waited for the lock");
    await released;
    writeFileSync(`${store.file}.lock`, "");
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${store.file}.lock`, old, old);
    assert.equal(await store.add([memoryOf(repo, "a", "src/lib.ts", "x")]), 1);
  });

  it("judges a memory stale when its file's blob changed or the file is gone", async () => {
    const lib = memoryOf(repo, "a", "src/lib.ts", "add() returns the sum");
    const app = memoryOf(repo, "b", "src/app.ts", "answer is 42");
    write(repo, "src/lib.ts", "export const add = (a: number, b: number) => a + b + 0;\n");
    git(repo, "commit", "-qam", "change lib");
    const head = git(repo, "rev-parse", "HEAD").trim();
    const blobs = await blobsAt(repo, head, ["src/lib.ts", "src/app.ts", "src", "missing.ts"]);
    assert.deepEqual([...blobs.keys()].sort(), ["src/app.ts", "src/lib.ts"], "folders and missing paths are absent");
    const judged = await judgeMemories(repo, head, [lib, app]);
    assert.deepEqual(
      judged.map((j) => [j.memory.id, j.status, j.changed]),
      [
        [lib.id, "stale", ["src/lib.ts"]],
        [app.id, "valid", []],
      ],
    );
  });
});
