// Memory across swarms, for one swarm: at set-up, the repository's memories judged against the swarm's start
// commit and the relevant valid ones chosen for its trunk (the trunk lists them by id; `memory.json` in the state
// dir and a board note say which were carried and which were stale); at its end, its verified findings written to
// the repository's memory. The store, the git checks and the ranking live in workspace/ and core/.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { chooseMemories, renderMemorySection, type MemoryChoice } from "../../core/memorySelection";
import type { SwarmBoard } from "../../core/swarmBoard";
import type { BoardEntry } from "../../protocol/board";
import type { JudgedMemory } from "../../protocol/memory";
import type { Recipe } from "../../protocol/recipe";
import { judgeMemories } from "../../workspace/memoryBlobs";
import { harvestMemories } from "../../workspace/memoryHarvest";
import { refSha } from "../../workspace/repoFacts";
import { RepositoryMemory } from "../../workspace/repositoryMemory";
import type { SwarmRepository } from "../../workspace/swarmRepository";
import type { SwarmRunOptions } from "./swarmRunOptions";

export interface SwarmMemory {
  /** The trunk's memory section ("" when there is nothing to carry or to say). */
  readonly section: string;
  readonly choice: MemoryChoice;
  /** Writes the swarm's verified findings to the repository's memory; never throws (memory is not the run). */
  remember(entries: readonly BoardEntry[]): Promise<void>;
}

/**
 * The trunk tokens memories may take: the recipe's budgets.memoryTokens, else a quarter of an agent's tokens; and
 * where the KV pool is capped (--kv-cells, the recipe's kvCells), at most an eighth of it, so that memories never
 * crowd out the agents' own cells.
 */
export function memoryTokenBudget(recipe: Recipe, kvCells?: number): number {
  const wanted = recipe.budgets.memoryTokens ?? Math.floor(recipe.budgets.tokensPerAgent / 4);
  const caps = [kvCells, recipe.budgets.kvCells].filter((c): c is number => c !== undefined && c > 0);
  return Math.min(wanted, ...caps.map((c) => Math.floor(c / 8)));
}

interface SwarmMemoryInput {
  readonly options: SwarmRunOptions;
  readonly repo: SwarmRepository;
  readonly board: SwarmBoard;
  /** Tokens of a text by the swarm's model. */
  readonly countTokens: (text: string) => number;
  readonly note: (entry: BoardEntry) => void;
}

function memoryNote(choice: MemoryChoice, budget: number, problems: readonly string[]): string {
  const ids = choice.carried.map((m) => m.id).join(", ");
  return [
    `The trunk carries ${choice.carried.length} memories of earlier swarms on this repository${ids ? ` (${ids})` : ""}, ` +
      `${choice.tokens} of ${budget} memory tokens.`,
    choice.stale > 0 ? `${choice.stale} stale (their files changed since) were left out.` : "",
    choice.overBudget > 0 ? `${choice.overBudget} related did not fit the recipe's budgets.memoryTokens.` : "",
    ...problems,
  ]
    .filter((p) => p !== "")
    .join(" ");
}

export async function openSwarmMemory(input: SwarmMemoryInput): Promise<SwarmMemory> {
  const { options, repo, board } = input;
  const store = await RepositoryMemory.forRepository(repo.topLevel);
  const startCommit = await refSha(repo.topLevel, `refs/heads/${repo.integrationBranch}`);
  if (startCommit === null) throw new Error(`The integration branch ${repo.integrationBranch} is missing.`);
  let judged: JudgedMemory[] = [];
  const problems: string[] = [];
  try {
    const read = await store.read();
    problems.push(...read.problems);
    // A resumed swarm's own findings are on its board already.
    const earlier = read.memories.filter((m) => m.swarmId !== options.swarmId);
    judged = await judgeMemories(repo.topLevel, startCommit, earlier);
  } catch (error) {
    problems.push(`The repository's memory could not be read, so none is carried: ${(error as Error).message}`);
  }
  const budget = memoryTokenBudget(options.recipe, options.kvCells);
  const choice = chooseMemories({ judged, goal: options.goal, tokenBudget: budget, countTokens: input.countTokens });
  const record = path.join(options.stateDir, "memory.json");
  const stale = judged.filter((j) => j.status === "stale").map((j) => ({ id: j.memory.id, changed: j.changed }));
  const carried = choice.carried.map((m) => m.id);
  await writeFile(record, JSON.stringify({ file: store.file, budget, tokens: choice.tokens, carried, stale }, null, 2));
  if (choice.carried.length > 0 || choice.stale > 0 || problems.length > 0)
    input.note(
      await board.postFinding({
        author: "swarmboard",
        kind: "OBSERVED",
        text: memoryNote(choice, budget, problems),
        time: Date.now(),
      }),
    );
  const remember = async (entries: readonly BoardEntry[]) => {
    let outcome: Record<string, unknown>;
    try {
      const endCommit = (await refSha(repo.topLevel, `refs/heads/${repo.integrationBranch}`)) ?? startCommit;
      const harvest = { topLevel: repo.topLevel, swarmId: options.swarmId, goal: options.goal, entries };
      const found = await harvestMemories({
        ...harvest,
        startCommit,
        endCommit,
        verifiedMerges: options.recipe.testCommand !== undefined,
        now: Date.now(),
      });
      outcome = { remembered: found.map((m) => m.id), added: await store.add(found) };
    } catch (error) {
      outcome = { error: `the swarm's findings were not remembered: ${(error as Error).message}` };
    }
    await writeFile(record, JSON.stringify({ file: store.file, budget, carried, stale, ...outcome }, null, 2)).catch(
      () => undefined,
    );
  };
  return { section: renderMemorySection(choice), choice, remember };
}
