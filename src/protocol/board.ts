// Board entries: the typed findings, claims and messages that agents share (DESIGN.md, "The organisation").
// One schema for what is written to the log, shown in the lanes and searched by grep_board.
import { z } from "zod";

export const boardEntryKinds = ["OBSERVED", "FACT", "FAIL", "CLAIM", "RELEASE", "PATCH_SUMMARY", "MESSAGE"] as const;
export const boardEntryKindSchema = z.enum(boardEntryKinds);
export type BoardEntryKind = z.infer<typeof boardEntryKindSchema>;

/**
 * A workspace-relative path: forward slashes, no leading `/`, no `..` segment. Claims compare paths as text,
 * so a path that could leave the workspace or name the same file twice is refused here.
 */
export const relativePathSchema = z
  .string()
  .min(1, "expected a non-empty workspace-relative path")
  .refine((p) => !p.startsWith("/") && !/^[A-Za-z]:/.test(p), "expected a workspace-relative path, not an absolute one")
  .refine((p) => !p.split(/[\\/]/).includes(".."), "expected a path inside the workspace (no `..` segment)");

/** What an entry is about: files, glob patterns (see src/core/globs.ts for the supported subset) and/or a task. */
export const scopeSchema = z.object({
  paths: z.array(relativePathSchema).default([]),
  globs: z.array(z.string().min(1, "expected a non-empty glob")).default([]),
  taskId: z.string().min(1).optional(),
});
export type Scope = z.infer<typeof scopeSchema>;
export type ScopeInput = z.input<typeof scopeSchema>;

/** A `file:line` reference (lines are 1-based; `endLine` closes a range). */
export const fileRefSchema = z.object({
  path: relativePathSchema,
  line: z.number().int().positive().optional(),
  endLine: z.number().int().positive().optional(),
});
export type FileRef = z.infer<typeof fileRefSchema>;

/** Who gets a MESSAGE entry: the whole swarm, or one agent. */
export const messageTargetSchema = z.union([z.literal("swarm"), z.object({ agent: z.string().min(1) })]);
export type MessageTarget = z.infer<typeof messageTargetSchema>;

export const boardEntrySchema = z.object({
  /** Unique in the swarm; replaying an entry whose id is known changes nothing. */
  id: z.string().min(1),
  kind: boardEntryKindSchema,
  /** Agent id (or `user`, `host`). */
  author: z.string().min(1),
  /** Milliseconds since the epoch, from the caller's clock (core never reads a clock). */
  time: z.number().int().nonnegative(),
  scope: scopeSchema.default({ paths: [], globs: [] }),
  text: z.string(),
  refs: z.array(fileRefSchema).default([]),
  /** MESSAGE only: who it is for. */
  to: messageTargetSchema.optional(),
  /** RELEASE only: the id of the CLAIM entry it ends. */
  releases: z.string().min(1).optional(),
  /** CLAIM only: when the lease runs out unless renewed (ms since the epoch). */
  leaseUntil: z.number().int().nonnegative().optional(),
});
export type BoardEntry = z.infer<typeof boardEntrySchema>;
export type BoardEntryInput = z.input<typeof boardEntrySchema>;

/** Query of grep_board; every given filter must match. */
export const boardQuerySchema = z.object({
  /** A JavaScript regular expression, matched against the text (case-insensitive unless `caseSensitive`). */
  regex: z.string().optional(),
  caseSensitive: z.boolean().optional(),
  kind: z.union([boardEntryKindSchema, z.array(boardEntryKindSchema)]).optional(),
  author: z.string().optional(),
  /** A path or glob: matches entries whose scope or refs could touch it. */
  path: z.string().optional(),
  /** Most entries returned (newest last); default 50. */
  limit: z.number().int().positive().optional(),
});
export type BoardQuery = z.infer<typeof boardQuerySchema>;

export const visibilitySchema = z.enum(["shared", "private-pads"]);
export type Visibility = z.infer<typeof visibilitySchema>;
