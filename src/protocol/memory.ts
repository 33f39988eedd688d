// Memory across swarms: the findings that earlier swarms on a repository verified (FACT, PATCH_SUMMARY), each
// with where it came from (swarm, agent, board entry) and the git blob of every file it is about at the time,
// so a later swarm can tell a memory that still holds from one whose file has changed since.
// One JSON object per line in the repository's memory file (src/workspace/repositoryMemory.ts).
import { z } from "zod";
import { fileRefSchema, relativePathSchema } from "./board";

export const memoryKinds = ["FACT", "PATCH_SUMMARY"] as const;
export const memoryKindSchema = z.enum(memoryKinds);
export type MemoryKind = z.infer<typeof memoryKindSchema>;

/** A file a memory is about, and its git blob id at the commit the memory was taken at. */
export const memoryFileSchema = z.object({
  path: relativePathSchema,
  blob: z.string().regex(/^[0-9a-f]{40,64}$/, "expected a git object id (hex)"),
});
export type MemoryFile = z.infer<typeof memoryFileSchema>;

export const memoryIdSchema = z.string().regex(/^m-[0-9a-f]{12}$/, 'expected a memory id like "m-0123456789ab"');

export const memorySchema = z.object({
  /** "m-" and 12 hex digits, from the swarm and the board entry: the same entry remembered twice is one memory. */
  id: memoryIdSchema,
  kind: memoryKindSchema,
  text: z.string().min(1),
  refs: z.array(fileRefSchema).default([]),
  /** Every file the memory is about (never empty): a memory without a file could never be found stale. */
  files: z.array(memoryFileSchema).min(1),
  /** Provenance: the swarm, its goal, the agent that posted the entry, the entry's id and time. */
  swarmId: z.string().min(1),
  goal: z.string(),
  agent: z.string().min(1),
  entryId: z.string().min(1),
  postedAt: z.number().int().nonnegative(),
  /** The commit whose blobs `files` are: the swarm's start for a FACT, its integration branch's end for a patch. */
  commit: z.string().regex(/^[0-9a-f]{40,64}$/),
  /** When the memory was written (the swarm's end). */
  rememberedAt: z.number().int().nonnegative(),
});
export type Memory = z.infer<typeof memorySchema>;

/** A memory judged against a commit: valid while every file it is about has the same blob there. */
export const judgedMemorySchema = z.object({
  memory: memorySchema,
  status: z.enum(["valid", "stale"]),
  /** The files whose blob differs (or that are gone) at the commit it was judged against. */
  changed: z.array(relativePathSchema),
});
export type JudgedMemory = z.infer<typeof judgedMemorySchema>;
