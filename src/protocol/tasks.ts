// Work items for the swarm and the raw events they come from (DESIGN.md: "fast path in code, slow path
// in the model": events are filtered and deduplicated in src/core/taskSources.ts before a model sees them).
import { z } from "zod";
import { fileRefSchema, relativePathSchema } from "./board";

/** `user`: a task the person added to a running swarm (src/worker/swarm/userTasks.ts). */
export const taskKindSchema = z.enum(["goal", "test-failure", "todo", "diagnostic", "user"]);
export type TaskKind = z.infer<typeof taskKindSchema>;

export const taskSchema = z.object({
  /** Stable across runs for the same work (derived from its key), so claims can name it. */
  id: z.string().min(1),
  kind: taskKindSchema,
  /** One line for the roster and the lanes. */
  title: z.string().min(1),
  /** Detail for the agent (error text, the comment, the goal). */
  detail: z.string(),
  refs: z.array(fileRefSchema).default([]),
  /** The dedup key: two events with the same key are the same work. */
  key: z.string().min(1),
});
export type Task = z.infer<typeof taskSchema>;

export const diagnosticSchema = z.object({
  path: relativePathSchema,
  line: z.number().int().positive(),
  severity: z.enum(["error", "warning", "information", "hint"]),
  message: z.string(),
  /** The tool that reported it (`ts`, `eslint`). */
  source: z.string().optional(),
  code: z.union([z.string(), z.number()]).optional(),
});
export type Diagnostic = z.infer<typeof diagnosticSchema>;

/** A raw event from one of the task sources. */
export const taskEventSchema = z.discriminatedUnion("source", [
  z.object({ source: z.literal("goal"), goal: z.string().min(1) }),
  z.object({ source: z.literal("test-output"), command: z.string(), output: z.string(), exitCode: z.number().int() }),
  z.object({ source: z.literal("file-text"), path: relativePathSchema, text: z.string() }),
  z.object({
    source: z.literal("diagnostics"),
    diagnostics: z.array(diagnosticSchema),
    /** The files this report covers: a file listed here without diagnostics is clean (default: their paths). */
    files: z.array(relativePathSchema).optional(),
  }),
]);
export type TaskEvent = z.infer<typeof taskEventSchema>;
