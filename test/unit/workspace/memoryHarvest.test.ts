// What a swarm's end writes to the repository's memory, on a real repository with a swarm's branches: a FACT that
// names a file, with the file's blob at the swarm's start; a PATCH_SUMMARY only when merges were verified and its
// author's branch landed on the integration branch, with the blobs of the files that branch changed at the end;
// nothing for OBSERVED, for facts without a file, for the swarm's own notes, for refused merges or branches that
// never landed.
import assert from "node:assert/strict";
import type { BoardEntry } from "../../../src/protocol/board";
import { harvestMemories, memoryId } from "../../../src/workspace/memoryHarvest";
import { cleanRepo, git, removeDir, write } from "./gitFixture";

const swarm = "organization-20261201-070112-ab12";

function entry(id: string, kind: BoardEntry["kind"], author: string, text: string, paths: string[] = []): BoardEntry {
  return {
    id,
    kind,
    author,
    time: 1_000,
    scope: { paths: [], globs: [] },
    text,
    refs: paths.map((p) => ({ path: p, line: 1 })),
  };
}

describe("memory harvest at a swarm's end", () => {
  let repo = "";
  let start = "";
  let end = "";
  beforeEach(() => {
    repo = cleanRepo();
    start = git(repo, "rev-parse", "HEAD").trim();
    git(repo, "branch", `swarmboard/${swarm}/main`);
    // agent-1 changes src/lib.ts and lands; agent-2 changes src/app.ts and never lands.
    for (const [agent, file] of [
      ["agent-1", "src/lib.ts"],
      ["agent-2", "src/app.ts"],
    ] as const) {
      git(repo, "checkout", "-q", "-b", `swarmboard/${swarm}/${agent}`, start);
      write(repo, file, `// changed by ${agent}\n`);
      git(repo, "commit", "-qam", `${agent} work`);
    }
    git(repo, "checkout", "-q", "main");
    git(repo, "update-ref", `refs/heads/swarmboard/${swarm}/main`, `swarmboard/${swarm}/agent-1`);
    end = git(repo, "rev-parse", `swarmboard/${swarm}/main`).trim();
  });
  afterEach(() => removeDir(repo));

  const harvest = (entries: BoardEntry[], verifiedMerges: boolean) =>
    harvestMemories({
      topLevel: repo,
      swarmId: swarm,
      goal: "tidy",
      entries,
      startCommit: start,
      endCommit: end,
      verifiedMerges,
      now: 5_000,
    });

  it("keeps facts that name a file with the blob the agents read, and landed verified patches", async () => {
    const entries = [
      entry("e1", "FACT", "agent-1", "add() returns a + b", ["src/lib.ts"]),
      entry("e2", "FACT", "agent-1", "a fact about nothing in particular"),
      entry("e3", "OBSERVED", "agent-1", "looks fine", ["src/lib.ts"]),
      entry("e4", "FACT", "swarmboard", "the swarm's own note", ["src/lib.ts"]),
      entry("e5", "PATCH_SUMMARY", "agent-1", "merged swarmboard/x/agent-1 (tests passed): 3 passed"),
      entry("e6", "PATCH_SUMMARY", "agent-1", "refused to merge swarmboard/x/agent-1 (tests broke-tests): t1"),
      entry("e7", "PATCH_SUMMARY", "agent-2", "merged? it never landed"),
      entry("e8", "PATCH_SUMMARY", "agent-1.sub-1", "a sub-agent has no branch of its own"),
    ];
    const memories = await harvest(entries, true);
    assert.deepEqual(
      memories.map((m) => [m.entryId, m.kind, m.files, m.commit]),
      [
        ["e1", "FACT", [{ path: "src/lib.ts", blob: git(repo, "rev-parse", `${start}:src/lib.ts`).trim() }], start],
        [
          "e5",
          "PATCH_SUMMARY",
          [{ path: "src/lib.ts", blob: git(repo, "rev-parse", `${end}:src/lib.ts`).trim() }],
          end,
        ],
      ],
    );
    assert.equal(memories[0]!.id, memoryId(swarm, "e1"));
    assert.deepEqual(
      {
        swarmId: memories[0]!.swarmId,
        agent: memories[0]!.agent,
        goal: memories[0]!.goal,
        at: memories[0]!.rememberedAt,
      },
      { swarmId: swarm, agent: "agent-1", goal: "tidy", at: 5_000 },
    );
  });

  it("keeps no patch summary when merges were not verified by a test command", async () => {
    const memories = await harvest([entry("e5", "PATCH_SUMMARY", "agent-1", "merged (tests unverified)")], false);
    assert.deepEqual(memories, []);
  });
});
