// The organisation's own tools (board, claims, messages): argument schemas, next to the workspace tools of
// tools.ts. The worker dispatches them to src/core (board, claims, message router), not to the file system.
import { z } from "zod";
import { boardQuerySchema, fileRefSchema, scopeSchema } from "./board";
import { findingKindLooks, findingKindSchema } from "./findingKinds";

const kindMeanings = Object.entries(findingKindLooks)
  .map(([kind, look]) => `${kind}: ${look.meaning}`)
  .join("; ");

export const postFindingArgs = z.object({
  kind: findingKindSchema.describe(kindMeanings),
  text: z.string().min(1).max(4000),
  scope: scopeSchema.optional(),
  refs: z.array(fileRefSchema).max(16).default([]).describe("file:line places the finding is about"),
});
export const grepBoardArgs = boardQuerySchema;
export const listFindingsArgs = z.object({
  kind: z.array(findingKindSchema).min(1).optional().describe("only these kinds (default: every finding kind)"),
  path: z.string().min(1).optional().describe("a file, folder or glob the findings' scope or refs touch"),
  text: z.string().min(1).max(1000).optional().describe("words the text contains, as written (any case)"),
  limit: z.number().int().min(1).default(50).describe("most findings returned, the newest"),
});
export const claimArgs = z.object({
  scope: scopeSchema.describe("the task id, paths or globs this agent will work on"),
  text: z.string().min(1).max(1000).describe("what the agent intends to do"),
});
export const releaseArgs = z.object({
  claimId: z.string().min(1),
  reason: z.string().min(1).max(1000),
});
/** The live roster: who is on the board and which claims each holds (no arguments). */
export const rosterArgs = z.object({});
export const sendMessageArgs = z.object({
  to: z.string().min(1).describe('"swarm" for everyone, or an agent id'),
  text: z.string().min(1).max(4000),
});

/** The organisation's first five tools, as the trunk's golden test documents them (later ones are in the catalogue). */
export const boardToolArgSchemas = {
  post_finding: postFindingArgs,
  grep_board: grepBoardArgs,
  claim: claimArgs,
  release: releaseArgs,
  send_message: sendMessageArgs,
} as const;
export type BoardToolName = keyof typeof boardToolArgSchemas;

/** Human descriptions for the trunk prompt's tool list. */
export const boardToolDescriptions: Record<BoardToolName, string> = {
  post_finding: "Post a typed finding to the board (shared or on your pad, depending on the recipe).",
  grep_board: "Search the whole board history by regex, kind, author or path.",
  claim:
    "Claim a sub-task or files before changing them; refused if another agent holds an overlapping claim. Files you claim are yours: other agents' writes, edits and merges of them are refused until you release.",
  release: "Release a claim when you finish or give up on it.",
  send_message: 'Message the swarm ("swarm") or one agent; delivered at its next iteration or tool return.',
};
