// The organisation's tools: findings, board search, claims, messages. They act on the swarm's board
// (src/core/swarmBoard.ts), never on files; what each means to the loop is written next to it
// (a finding is progress, a granted claim moves the loop from gather to act).
import type { z } from "zod";
import { describeScope } from "../../../core/scopes";
import type { Scope } from "../../../protocol/board";
import type { SwarmBoard } from "../../../core/swarmBoard";
import {
  boardToolDescriptions,
  claimArgs,
  grepBoardArgs,
  listFindingsArgs,
  postFindingArgs,
  releaseArgs,
  sendMessageArgs,
} from "../../../protocol/boardTools";
import { findingKinds } from "../../../protocol/findingKinds";
import { defineTool, type CatalogTool, type ToolDefinition } from "./toolDefinition";

/** What the board tools need: who calls, the board, and the clock. */
export interface BoardToolContext {
  readonly agent: string;
  readonly board: SwarmBoard;
  readonly now: () => number;
  /** The agent's workspace: a granted claim makes a writer's worktree, or widens a sparse one (absent in tests of the board alone). */
  readonly workspace?: { prepare(scope?: Scope): Promise<void> };
}

function boardTool<Schema extends z.ZodType, Result>(
  def: Omit<ToolDefinition<BoardToolContext, Schema, Result>, "kind" | "description">,
  description: string,
): CatalogTool<BoardToolContext> {
  return defineTool({ ...def, kind: "board", description });
}

/** A text to look for as it is written, not as a pattern. */
function literalPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export const boardTools: readonly CatalogTool<BoardToolContext>[] = [
  boardTool(
    {
      name: "post_finding",
      args: postFindingArgs,
      run: ({ agent, board, now }, a) =>
        board.postFinding({
          author: agent,
          kind: a.kind,
          text: a.text,
          time: now(),
          ...(a.scope ? { scope: a.scope } : {}),
          refs: a.refs,
        }),
      meaning: (entry) => ({
        summary: `${entry.kind}: ${entry.text}`,
        reply: { posted: entry.id },
        progress: { finding: true },
        posted: [entry],
      }),
    },
    boardToolDescriptions.post_finding,
  ),
  boardTool(
    {
      name: "grep_board",
      args: grepBoardArgs,
      run: async ({ agent, board }, query) =>
        board.grep(agent, query).map((e) => ({ id: e.id, kind: e.kind, author: e.author, text: e.text, refs: e.refs })),
      meaning: (entries) => ({ summary: `grep_board: ${entries.length} entries`, reply: { entries } }),
    },
    boardToolDescriptions.grep_board,
  ),
  boardTool(
    {
      name: "list_findings",
      args: listFindingsArgs,
      run: async ({ agent, board }, a) => {
        const hits = board.grep(agent, {
          kind: a.kind ?? [...findingKinds],
          ...(a.path !== undefined ? { path: a.path } : {}),
          ...(a.text !== undefined ? { regex: literalPattern(a.text) } : {}),
          limit: Number.MAX_SAFE_INTEGER,
        });
        const shown = hits.slice(Math.max(0, hits.length - a.limit));
        const findings = shown.map((e) => ({ id: e.id, kind: e.kind, author: e.author, text: e.text, refs: e.refs }));
        return { findings, total: hits.length, truncated: shown.length < hits.length };
      },
      meaning: (r) => ({
        summary: `list_findings: ${r.findings.length} of ${r.total}`,
        reply: r.truncated
          ? { ...r, note: `Showing the newest ${r.findings.length} of ${r.total}; narrow by kind, path or text.` }
          : r,
      }),
    },
    "List the findings you can see (not claims or messages), by kind, path or words; newest last.",
  ),
  boardTool(
    {
      name: "claim",
      args: claimArgs,
      // A granted claim is where a writer starts changing code: its worktree is made now (readers have none).
      run: async ({ agent, board, now, workspace }, a) => {
        const outcome = await board.claim(agent, a.scope, a.text, now());
        if (outcome.granted) await workspace?.prepare(outcome.lease.scope);
        return outcome;
      },
      meaning: (outcome) =>
        outcome.granted
          ? {
              summary: `claimed ${describeScope(outcome.lease.scope)}`,
              reply: { granted: true, claimId: outcome.lease.claimId, leaseUntil: outcome.lease.leaseUntil },
              loopInputs: ["gathered", "claimGranted"],
              posted: [outcome.entry],
            }
          : {
              summary: `claim refused: ${outcome.reason}`,
              reply: { granted: false, reason: outcome.reason, holders: outcome.holders },
              loopInputs: ["gathered", "claimRefused"],
            },
    },
    boardToolDescriptions.claim,
  ),
  boardTool(
    {
      name: "release",
      args: releaseArgs,
      run: async ({ board, now }, a) => {
        const entry = await board.release(a.claimId, a.reason, now());
        if (entry === undefined) throw new Error(`there is no live claim ${a.claimId}.`);
        return entry;
      },
      meaning: (entry, a) => ({ summary: `released ${a.claimId}`, reply: { released: a.claimId }, posted: [entry] }),
    },
    boardToolDescriptions.release,
  ),
  boardTool(
    {
      name: "send_message",
      args: sendMessageArgs,
      run: async ({ agent, board, now }, a) => {
        const message = await board.send(agent, a.to, a.text, now());
        return { id: message.id, entry: board.board.get(message.id) };
      },
      meaning: (sent, a) => ({
        summary: `message to ${a.to}: ${a.text}`,
        reply: { sent: sent.id },
        posted: sent.entry ? [sent.entry] : [],
      }),
    },
    boardToolDescriptions.send_message,
  ),
];
