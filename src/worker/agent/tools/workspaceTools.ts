// The workspace tools: files, search, commands and git in the agent's own worktree. Each runs one typed method
// of AgentWorkspace; what it means to the loop is written next to it (a change is a diff, a commit is acted,
// a command that ran is a verification, a merge moves the loop on). A tool that changes files names the paths it
// would touch (`touches`), and those are checked against the other agents' claims before it runs (claimBinding.ts).
import type { z } from "zod";
import type { LoopInput } from "../../../protocol/agentLoop";
import {
  commitArgs,
  editFileArgs,
  gitDiffArgs,
  gitStatusArgs,
  listDirArgs,
  mergeProgressArgs,
  readFileArgs,
  runCommandArgs,
  searchArgs,
  writeFileArgs,
} from "../../../protocol/tools";
import type { AgentWorkspace } from "../../../workspace/agentWorkspace";
import type { SwarmBoard } from "../../../core/swarmBoard";
import type { BoardEntry } from "../../../protocol/board";
import type { MergeProgressResult, ToolArgs } from "../../../protocol/tools";
import { mergeRefusal, writeRefusal, type ClaimedPath } from "../../../core/claimedPaths";
import { refuseClaimedPaths } from "./claimBinding";
import { defineTool, type CatalogTool, type ToolDefinition } from "./toolDefinition";

/** What the workspace tools need: the agent's worktree (absent for a role without one) and its stop signal. */
export interface WorkspaceToolContext {
  readonly workspace?: AgentWorkspace;
  readonly signal?: AbortSignal;
  /** Where merge_progress posts what the tests said (absent in tests of the workspace alone). */
  readonly board?: SwarmBoard;
  readonly agent?: string;
  readonly now?: () => number;
}

function worktreeOf(ctx: WorkspaceToolContext): AgentWorkspace {
  if (ctx.workspace === undefined) throw new Error("this agent has no worktree (its role does not change code).");
  return ctx.workspace;
}

/** What a changing tool declares so that claims bind it: the paths it would touch, and how a refusal reads. */
interface ClaimBound<Schema extends z.ZodType> {
  readonly touches?: (ctx: WorkspaceToolContext, args: z.output<Schema>) => Promise<readonly string[]>;
  readonly refusal?: (blocked: readonly ClaimedPath[]) => string;
}

function workspaceTool<Schema extends z.ZodType, Result>(
  def: Omit<ToolDefinition<WorkspaceToolContext, Schema, Result>, "kind"> & ClaimBound<Schema>,
): CatalogTool<WorkspaceToolContext> {
  const { touches, refusal, ...rest } = def;
  if (touches === undefined) return defineTool({ ...rest, kind: "workspace" });
  const refuse = refusal ?? ((blocked: readonly ClaimedPath[]) => writeRefusal(rest.name, blocked));
  return defineTool({
    ...rest,
    kind: "workspace",
    run: async (ctx, args) => {
      refuseClaimedPaths(ctx, await touches(ctx, args), refuse);
      return rest.run(ctx, args);
    },
  });
}

export const workspaceTools: readonly CatalogTool<WorkspaceToolContext>[] = [
  workspaceTool({
    name: "list_dir",
    description: "List a directory of your worktree.",
    args: listDirArgs,
    run: (ctx, args) => worktreeOf(ctx).listDir(args),
    meaning: () => ({ summary: "list_dir" }),
  }),
  workspaceTool({
    name: "read_file",
    description: "Read a file of your worktree (optionally a line range); long files are cut and say so.",
    args: readFileArgs,
    run: (ctx, args) => worktreeOf(ctx).readFile(args),
    meaning: () => ({ summary: "read_file" }),
  }),
  workspaceTool({
    name: "search",
    description: "Search your worktree with git grep (regex or fixed string, optional path filters).",
    args: searchArgs,
    run: (ctx, args) => worktreeOf(ctx).search(args),
    meaning: () => ({ summary: "search" }),
  }),
  workspaceTool({
    name: "write_file",
    description: "Create or overwrite a file in your worktree.",
    args: writeFileArgs,
    touches: async (_ctx, args) => [args.path],
    run: (ctx, args) => worktreeOf(ctx).writeFile(args),
    meaning: (r) => ({ summary: `write_file ${r.path}`, progress: { diff: true } }),
  }),
  workspaceTool({
    name: "edit_file",
    description:
      "Change a file by search/replace blocks (edits), applied in order; each search must occur exactly once. " +
      "Nothing is written unless every block matches.",
    args: editFileArgs,
    touches: async (_ctx, args) => [args.path],
    run: (ctx, args) => worktreeOf(ctx).editFile(args),
    meaning: (r) => ({ summary: `edit_file ${r.path}`, progress: { diff: true } }),
  }),
  workspaceTool({
    name: "run_command",
    description: "Run a shell command in your worktree under the command policy (sandboxed, with a timeout).",
    args: runCommandArgs,
    run: (ctx, args) => worktreeOf(ctx).runCommand(args, ctx.signal),
    // A command that ran is a verification (exit 0 passes); one that did not run is an error the agent reads.
    meaning: (r, args) =>
      r.ran
        ? {
            summary: `ran (exit ${String(r.exitCode)}): ${args.command}`,
            loopInputs: [r.exitCode === 0 ? "verified" : "verifyFailed"],
            progress: { testChange: true },
          }
        : { ok: false, summary: `not run: ${r.reason}`, error: r.reason },
  }),
  workspaceTool({
    name: "git_status",
    description: "Show your worktree's changed files.",
    args: gitStatusArgs,
    run: (ctx) => worktreeOf(ctx).gitStatus(),
    meaning: () => ({ summary: "git_status" }),
  }),
  workspaceTool({
    name: "git_diff",
    description: "Show your uncommitted changes (or staged ones).",
    args: gitDiffArgs,
    run: (ctx, args) => worktreeOf(ctx).gitDiff(args),
    meaning: () => ({ summary: "git_diff" }),
  }),
  workspaceTool({
    name: "commit",
    description: "Commit all your changes on your branch.",
    args: commitArgs,
    run: (ctx, args) => worktreeOf(ctx).commit(args),
    meaning: (r) => ({
      summary: `commit ${(r.sha ?? "").slice(0, 8)}`,
      progress: { diff: true },
      loopInputs: ["acted"],
    }),
  }),
  workspaceTool({
    name: "merge_progress",
    description: "Merge your verified commits into the swarm's integration branch; a conflict comes back to resolve.",
    args: mergeProgressArgs,
    // What the merge would publish: every file the branch changed (an abort publishes nothing).
    touches: async (ctx, args) => (args.abort || ctx.workspace === undefined ? [] : ctx.workspace.branchChanges()),
    refusal: mergeRefusal,
    run: (ctx, args) => mergeAndPost(ctx, args),
    // A conflict is read by the agent (its files and hunks) and counted by the watchdog as a setback.
    meaning: ({ posted, ...r }) => {
      const inputs: Record<typeof r.status, readonly LoopInput[]> = {
        merged: ["acted", "verified", "merged"],
        "up-to-date": ["acted", "verified", "merged"],
        conflict: ["acted", "verified", "mergeConflict"],
        aborted: [],
        refused: [],
      };
      return {
        summary: `merge: ${r.status}`,
        loopInputs: inputs[r.status],
        progress: { diff: r.status === "merged" },
        reply: r,
        posted: posted ? [posted] : [],
        ...(r.status === "conflict" || r.status === "refused" ? { error: r.message } : {}),
      };
    },
  }),
];

/**
 * merge_progress, and what its tests said posted on the board as a PATCH_SUMMARY (which tests broke, the pass
 * and fail counts, or why it is unverified), so the swarm and the user see it next to the change.
 */
async function mergeAndPost(
  ctx: WorkspaceToolContext,
  args: ToolArgs<"merge_progress">,
): Promise<MergeProgressResult & { posted?: BoardEntry }> {
  const ws = worktreeOf(ctx);
  const result = await ws.mergeProgress(args);
  const v = "verification" in result ? result.verification : undefined;
  if (v === undefined || ctx.board === undefined || ctx.agent === undefined) return result;
  const branch = ws.branch ?? "its branch";
  const what = result.status === "merged" ? `merged ${branch}` : `refused to merge ${branch}`;
  const posted = await ctx.board.postFinding({
    author: ctx.agent,
    kind: "PATCH_SUMMARY",
    text: `${what} (tests ${v.status}): ${v.note}`,
    time: (ctx.now ?? Date.now)(),
  });
  return { ...result, posted };
}
