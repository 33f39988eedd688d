// Which memories of earlier swarms go into a new swarm's trunk: the valid ones (every file they are about has
// the same git blob now) ranked against the swarm's goal by BM25 (MiniSearch), taken best first while their
// lines fit the token budget. Stale memories are never offered as valid: they are left out and counted.
// Pure: the blobs are judged by the workspace layer and tokens are counted by the caller's tokenizer.
import MiniSearch from "minisearch";
import type { JudgedMemory, Memory } from "../protocol/memory";

/** Words too common to say what a goal is about; without this every memory would match "the". */
const stopWords = new Set(
  (
    "a an and are as at be by do does for from has have how in into is it its of on or our so that the their " +
    "then there these this to was we what when where which while who why will with you your all any can make"
  ).split(" "),
);

interface IndexedMemory {
  readonly id: string;
  readonly text: string;
  readonly paths: string;
  readonly goal: string;
}

/** A memory with its BM25 score against the query (0: no word of the query is in it). */
export interface RankedMemory {
  readonly memory: Memory;
  readonly score: number;
}

/** Ranks memories against a query (best first, ties by id); memories sharing no word with it are left out. */
export function rankMemories(memories: readonly Memory[], query: string): RankedMemory[] {
  const index = new MiniSearch<IndexedMemory>({
    fields: ["text", "paths", "goal"],
    processTerm: (term) => {
      const word = term.toLowerCase();
      return stopWords.has(word) || word.length < 2 ? null : word;
    },
    searchOptions: { boost: { text: 2, paths: 1.5 }, prefix: true, fuzzy: 0.1 },
  });
  const byId = new Map(memories.map((m) => [m.id, m]));
  index.addAll(
    [...byId.values()].map((m) => ({
      id: m.id,
      text: m.text,
      paths: m.files.map((f) => f.path).join(" "),
      goal: m.goal,
    })),
  );
  return index
    .search(query)
    .map((hit) => ({ memory: byId.get(String(hit.id)) as Memory, score: hit.score }))
    .sort((a, b) => b.score - a.score || (a.memory.id < b.memory.id ? -1 : 1));
}

export interface MemoryChoice {
  /** What goes into the trunk, best first. */
  readonly carried: readonly Memory[];
  /** Memories whose files changed since: never offered as valid. */
  readonly stale: number;
  /** Valid memories that share no word with the goal. */
  readonly unrelated: number;
  /** Related valid memories that did not fit the token budget. */
  readonly overBudget: number;
  /** Tokens the carried memories' lines take. */
  readonly tokens: number;
}

export interface MemoryChoiceInput {
  readonly judged: readonly JudgedMemory[];
  readonly goal: string;
  /** Most tokens the memory lines may take in the trunk (0: no memory). */
  readonly tokenBudget: number;
  /** Tokens of a text, by the model's tokenizer. */
  readonly countTokens: (text: string) => number;
}

export function chooseMemories(input: MemoryChoiceInput): MemoryChoice {
  const valid = input.judged.filter((j) => j.status === "valid").map((j) => j.memory);
  const stale = input.judged.length - valid.length;
  const ranked = rankMemories(valid, input.goal);
  const carried: Memory[] = [];
  let tokens = 0;
  for (const { memory } of ranked) {
    const cost = input.countTokens(memoryLine(memory) + "\n");
    if (tokens + cost > input.tokenBudget) continue;
    carried.push(memory);
    tokens += cost;
  }
  return {
    carried,
    stale,
    unrelated: valid.length - ranked.length,
    overBudget: ranked.length - carried.length,
    tokens,
  };
}

/** One memory as the trunk lists it: id, kind, provenance, the files at their blobs, the text. */
export function memoryLine(memory: Memory): string {
  const files = memory.files.map((f) => `${f.path}@${f.blob.slice(0, 7)}`).join(", ");
  const lines = memory.refs
    .filter((r) => r.line !== undefined)
    .map((r) => `${r.path}:${r.line}${r.endLine ? `-${r.endLine}` : ""}`);
  const at = lines.length > 0 ? ` (at ${lines.join(", ")})` : "";
  const text = memory.text.replace(/\s+/g, " ").trim();
  return `- [${memory.id}] ${memory.kind} from swarm ${memory.swarmId}, agent ${memory.agent}, files ${files}${at}: ${text}`;
}

/** The trunk's memory section; empty when there is nothing to carry or to say. */
export function renderMemorySection(choice: MemoryChoice): string {
  if (choice.carried.length === 0 && choice.stale === 0) return "";
  const left = [
    choice.stale > 0 ? `${choice.stale} stale (their files changed since)` : "",
    choice.overBudget > 0 ? `${choice.overBudget} related that did not fit the trunk's memory budget` : "",
  ].filter((p) => p !== "");
  const head =
    choice.carried.length === 0
      ? "No finding of earlier swarms on this repository is carried."
      : `Findings verified by earlier swarms on this repository, their files unchanged since (same git blobs), ` +
        `chosen for this goal (${choice.carried.length}): rely on them as FACTs and cite the id when you use one.`;
  return [head, ...choice.carried.map(memoryLine), ...(left.length > 0 ? [`Left out: ${left.join("; ")}.`] : [])].join(
    "\n",
  );
}
