// The choice of memories for a trunk: ranked against the goal by BM25 (MiniSearch), stale ones never offered and
// counted, related ones cut by the token budget (the biggest that fits is skipped, smaller ones still go in), and
// the section lists each carried memory with its id and provenance. Pure: words stand in for tokens here.
import assert from "node:assert/strict";
import { chooseMemories, memoryLine, rankMemories, renderMemorySection } from "../../../src/core/memorySelection";
import { renderTrunk } from "../../../src/core/trunkPrompt";
import { parseRecipeValue } from "../../../src/core/recipeParse";
import type { JudgedMemory, Memory } from "../../../src/protocol/memory";

const blob = (n: number) => n.toString(16).padStart(40, "0");

function memory(id: string, text: string, file: string, extra: Partial<Memory> = {}): Memory {
  return {
    id: `m-${id.padStart(12, "0")}`,
    kind: "FACT",
    text,
    refs: [{ path: file, line: 3 }],
    files: [{ path: file, blob: blob(id.length + text.length) }],
    swarmId: "organization-20261201-070112-ab12",
    goal: "first goal",
    agent: "agent-1",
    entryId: `e-${id}`,
    postedAt: 1_000,
    commit: blob(7),
    rememberedAt: 2_000,
    ...extra,
  };
}

const valid = (m: Memory): JudgedMemory => ({ memory: m, status: "valid", changed: [] });
const stale = (m: Memory): JudgedMemory => ({ memory: m, status: "stale", changed: m.files.map((f) => f.path) });
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

const median = memory("1", "median() sorts a copy of the numbers before it picks the middle", "src/stats.js");
const csv = memory("2", "parseCsv splits on commas and keeps quoted fields whole", "src/csv.js");
const mean = memory("3", "mean() returns NaN for an empty list", "src/stats.js");

describe("memory selection", () => {
  it("ranks by BM25 against the goal and leaves out memories that share no word with it", () => {
    const ranked = rankMemories([csv, median, mean], "Fix the median of the stats module");
    assert.deepEqual(
      ranked.map((r) => r.memory.id),
      [median.id, mean.id],
    );
    assert.ok(ranked[0]!.score > ranked[1]!.score, "the memory naming median ranks first");
    assert.deepEqual(rankMemories([csv, median], "the and of"), [], "stop words alone match nothing");
  });

  it("never offers a stale memory, counts it, and says so in the section", () => {
    const choice = chooseMemories({
      judged: [stale(median), valid(mean), valid(csv)],
      goal: "median and mean in stats",
      tokenBudget: 10_000,
      countTokens: words,
    });
    assert.deepEqual(
      choice.carried.map((m) => m.id),
      [mean.id],
    );
    assert.equal(choice.stale, 1);
    assert.equal(choice.unrelated, 1);
    const section = renderMemorySection(choice);
    assert.ok(!section.includes(median.id), "the stale memory is not in the trunk");
    assert.ok(section.includes(`[${mean.id}] FACT from swarm ${mean.swarmId}, agent agent-1, files src/stats.js@`));
    assert.match(section, /Left out: 1 stale \(their files changed since\)\./);
  });

  it("fills the token budget best first and skips what does not fit", () => {
    const long = memory("4", `median ${"word ".repeat(60)}`, "src/stats.js");
    const all = [valid(long), valid(median), valid(mean)];
    const lineTokens = (m: Memory) => words(memoryLine(m) + "\n");
    const budget = lineTokens(median) + lineTokens(mean);
    const choice = chooseMemories({ judged: all, goal: "median mean", tokenBudget: budget, countTokens: words });
    assert.deepEqual(new Set(choice.carried.map((m) => m.id)), new Set([median.id, mean.id]));
    assert.equal(choice.overBudget, 1);
    assert.equal(choice.tokens, budget);
    assert.equal(chooseMemories({ judged: all, goal: "median", tokenBudget: 0, countTokens: words }).carried.length, 0);
  });

  it("puts the section last in the trunk, and leaves the trunk as it was without memories", () => {
    const parsed = parseRecipeValue("t", {
      name: "t",
      description: "d",
      roles: [{ name: "worker", count: 1, tools: ["read_file"], instructions: "work" }],
      topology: { kind: "fanout" },
      budgets: { wallClockMs: 1000, tokensPerAgent: 1000, steps: 3 },
    });
    assert.ok(parsed.ok);
    const base = { recipe: parsed.recipe, goal: "g", tools: [], roster: [], workspaceSummary: "w" };
    const section = renderMemorySection(
      chooseMemories({ judged: [valid(median)], goal: "median", tokenBudget: 1000, countTokens: words }),
    );
    const withMemory = renderTrunk({ ...base, memory: section });
    assert.ok(
      withMemory.startsWith(renderTrunk(base)),
      "the trunk without memory is a prefix (reused by a kept trunk)",
    );
    assert.ok(withMemory.endsWith(`# Memory\n${section}\n`));
    assert.equal(renderTrunk({ ...base, memory: "" }), renderTrunk(base));
  });
});
