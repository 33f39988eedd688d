// Host <-> worker methods over a repository's memory across swarms (src/protocol/memory.ts): list it (every
// memory judged against the user's HEAD, ranked by a query when one is given) and delete memories by id.
import { z } from "zod";
import { defineMethod } from "./envelope";
import { judgedMemorySchema, memoryIdSchema } from "./memory";

const repositoryTarget = z.object({ workspace: z.string().min(1) });

export const listMemoriesMethod = defineMethod(
  "memory/list",
  repositoryTarget.extend({
    /** Words to rank by (BM25); absent: every memory, newest first. */
    query: z.string().min(1).optional(),
  }),
  z.object({
    memories: z.array(judgedMemorySchema),
    /** The commit they were judged against (the user's HEAD). */
    commit: z.string(),
    /** The memory file, for the user who wants to see it. */
    file: z.string(),
    /** Lines of the memory file that could not be read, each with why. */
    problems: z.array(z.string()),
  }),
);

export const deleteMemoriesMethod = defineMethod(
  "memory/delete",
  repositoryTarget.extend({ ids: z.array(memoryIdSchema).min(1) }),
  z.object({
    deleted: z.array(z.string()),
    unknown: z.array(z.string()),
    /** Lines of the file that could not be read: kept as they were, said here so the person knows. */
    problems: z.array(z.string()).default([]),
  }),
);
