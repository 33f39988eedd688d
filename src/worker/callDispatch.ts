// Runs one call an agent made and says what it means: the result the agent reads, a line for its lane,
// the loop inputs it implies, and the progress the watchdog judges. A call that does not parse or fails its
// schema is a tool error the agent reads and can correct, never a crash.
import type { BoardEntry } from "../protocol/board";
import type { LoopInput } from "../protocol/agentLoop";
import { describeScope } from "../core/scopes";
import type { SwarmBoard } from "../core/swarmBoard";
import type { AgentWorkspace } from "../workspace/agentWorkspace";
import type { CatalogTool } from "./toolCatalog";

export interface CallProgress {
  readonly finding?: boolean;
  readonly diff?: boolean;
  readonly testChange?: boolean;
}

export interface CallOutcome {
  readonly ok: boolean;
  /** What the agent reads back (JSON-serialisable). */
  readonly result: unknown;
  /** One line for the lane. */
  readonly summary: string;
  /** Loop inputs this outcome implies, applied in order where the loop accepts them. */
  readonly loopInputs: readonly LoopInput[];
  readonly progress: CallProgress;
  readonly error?: string;
  /** Parsed arguments (for the watchdog's repeat check), when they parsed. */
  readonly args?: unknown;
  /** Board entries the call posted (shown in the feed as they land). */
  readonly posted: readonly BoardEntry[];
  /** The agent ended its work. */
  readonly finished?: string;
  readonly report?: { readonly title: string; readonly body: string };
}

export interface CallDispatchContext {
  readonly agent: string;
  readonly board: SwarmBoard;
  readonly workspace?: AgentWorkspace;
  readonly tools: readonly CatalogTool[];
  readonly now: () => number;
  readonly signal?: AbortSignal;
  /** Runs a sub-agent forked from this agent's current state; absent where the depth limit is reached. */
  readonly spawnSubagent?: (task: string) => Promise<SubagentOutcome>;
}

export interface SubagentOutcome {
  readonly agentId: string;
  readonly summary: string;
  readonly findings: ReadonlyArray<{ kind: string; text: string }>;
}

function failure(error: string, extra: Partial<CallOutcome> = {}): CallOutcome {
  return {
    ok: false,
    result: { error },
    summary: error.length > 160 ? error.slice(0, 157) + "..." : error,
    loopInputs: [],
    progress: {},
    error,
    posted: [],
    ...extra,
  };
}

function success(result: unknown, summary: string, extra: Partial<CallOutcome> = {}): CallOutcome {
  return { ok: true, result, summary, loopInputs: [], progress: {}, posted: [], ...extra };
}

/** Parses and validates a call; the error says what was wrong so the agent can fix it. */
function parseCall(
  ctx: CallDispatchContext,
  name: string,
  argsText: string,
): { tool: CatalogTool; args: unknown } | { error: string } {
  const tool = ctx.tools.find((t) => t.name === name);
  if (tool === undefined)
    return { error: `invalid-call: "${name}" is not one of your tools (${ctx.tools.map((t) => t.name).join(", ")}).` };
  let raw: unknown;
  try {
    raw = argsText.trim() === "" ? {} : JSON.parse(argsText);
  } catch (e) {
    return {
      error: `invalid-args: the arguments of ${name} are not JSON (${(e as Error).message}). Send one JSON object.`,
    };
  }
  const parsed = tool.schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(args)"}: ${i.message}`).join("; ");
    return { error: `invalid-args: ${name}: ${issues}` };
  }
  return { tool, args: parsed.data };
}

export async function dispatchCall(ctx: CallDispatchContext, name: string, argsText: string): Promise<CallOutcome> {
  const call = parseCall(ctx, name, argsText);
  if ("error" in call) return failure(call.error);
  const { tool, args } = call;
  switch (tool.kind) {
    case "board":
      return boardCall(ctx, tool.name, args);
    case "control":
      return controlCall(tool.name, args);
    case "workspace":
      return workspaceCall(ctx, tool.name, args);
    case "delegate":
      return delegateCall(ctx, args as { task: string });
  }
}

async function delegateCall(ctx: CallDispatchContext, args: { task: string }): Promise<CallOutcome> {
  if (ctx.spawnSubagent === undefined)
    return failure("spawn_subagent: sub-agents cannot spawn further sub-agents here (depth limit).", { args });
  try {
    const child = await ctx.spawnSubagent(args.task);
    return success(child, `sub-agent ${child.agentId}: ${child.summary}`, {
      args,
      progress: { finding: child.findings.length > 0 },
    });
  } catch (e) {
    return failure(`spawn_subagent: ${(e as Error).message}`, { args });
  }
}

function controlCall(name: string, args: unknown): CallOutcome {
  if (name === "write_report") {
    const { title, body } = args as { title: string; body: string };
    return success({ written: true }, `report: ${title}`, {
      loopInputs: ["stop"],
      finished: "wrote the report",
      report: { title, body },
      args,
    });
  }
  const { summary } = args as { summary: string };
  return success({ finished: true }, `finished: ${summary}`, { loopInputs: ["stop"], finished: summary, args });
}

async function boardCall(ctx: CallDispatchContext, name: string, args: unknown): Promise<CallOutcome> {
  const { board, agent } = ctx;
  const now = ctx.now();
  try {
    switch (name) {
      case "post_finding": {
        const a = args as {
          kind: "OBSERVED" | "FACT" | "FAIL" | "PATCH_SUMMARY";
          text: string;
          scope?: object;
          refs: [];
        };
        const entry = await board.postFinding({
          author: agent,
          kind: a.kind,
          text: a.text,
          time: now,
          ...(a.scope ? { scope: a.scope } : {}),
          refs: a.refs,
        });
        return success({ posted: entry.id }, `${a.kind}: ${a.text}`, {
          progress: { finding: true },
          posted: [entry],
          args,
        });
      }
      case "grep_board": {
        const found = board.grep(agent, args as Parameters<SwarmBoard["grep"]>[1]);
        const entries = found.map((e) => ({ id: e.id, kind: e.kind, author: e.author, text: e.text, refs: e.refs }));
        return success({ entries }, `grep_board: ${entries.length} entries`, { args });
      }
      case "claim": {
        const a = args as { scope: Parameters<SwarmBoard["claim"]>[1]; text: string };
        const outcome = await board.claim(agent, a.scope, a.text, now);
        if (!outcome.granted) {
          return success(
            { granted: false, reason: outcome.reason, holders: outcome.holders },
            `claim refused: ${outcome.reason}`,
            { loopInputs: ["gathered", "claimRefused"], args },
          );
        }
        return success(
          { granted: true, claimId: outcome.lease.claimId, leaseUntil: outcome.lease.leaseUntil },
          `claimed ${describeScope(outcome.lease.scope)}`,
          { loopInputs: ["gathered", "claimGranted"], posted: [outcome.entry], args },
        );
      }
      case "release": {
        const a = args as { claimId: string; reason: string };
        const entry = await board.release(a.claimId, a.reason, now);
        if (entry === undefined) return failure(`release: there is no live claim ${a.claimId}.`, { args });
        return success({ released: a.claimId }, `released ${a.claimId}`, { posted: [entry], args });
      }
      case "send_message": {
        const a = args as { to: string; text: string };
        const message = await board.send(agent, a.to, a.text, now);
        const entry = board.board.get(message.id);
        return success({ sent: message.id }, `message to ${a.to}: ${a.text}`, { args, posted: entry ? [entry] : [] });
      }
    }
  } catch (e) {
    return failure(`${name}: ${(e as Error).message}`, { args });
  }
  return failure(`${name}: not a board tool.`, { args });
}

async function workspaceCall(ctx: CallDispatchContext, name: string, args: unknown): Promise<CallOutcome> {
  if (ctx.workspace === undefined)
    return failure(`${name}: this agent has no worktree (its role does not change code).`, { args });
  const outcome = await ctx.workspace.call(name, args, ctx.signal);
  if (!outcome.ok) return failure(`${outcome.error.code}: ${outcome.error.message}`, { args });
  const r = outcome.result as Record<string, unknown>;
  switch (name) {
    case "write_file":
    case "edit_file":
      return success(r, `${name} ${String(r.path)}`, { progress: { diff: true }, args });
    case "commit":
      return success(r, `commit ${String(r.sha ?? "").slice(0, 8)}`, {
        progress: { diff: true },
        loopInputs: ["acted"],
        args,
      });
    case "run_command": {
      const ran = r.ran === true;
      const passed = ran && r.exitCode === 0;
      const summary = ran
        ? `ran (exit ${String(r.exitCode)}): ${(args as { command: string }).command}`
        : `not run: ${String(r.reason)}`;
      return {
        ...success(r, summary, { args, progress: { testChange: ran } }),
        ok: ran,
        loopInputs: ran ? [passed ? "verified" : "verifyFailed"] : [],
        ...(ran ? {} : { error: String(r.reason) }),
      };
    }
    case "merge_progress": {
      const status = String(r.status);
      const inputs: LoopInput[] =
        status === "merged" || status === "up-to-date"
          ? ["acted", "verified", "merged"]
          : status === "conflict"
            ? ["acted", "verified", "mergeConflict"]
            : [];
      return success(r, `merge: ${status}`, {
        loopInputs: inputs,
        progress: { diff: status === "merged" },
        args,
        ...(status === "conflict" || status === "refused" ? { error: String(r.message) } : {}),
      });
    }
    default:
      return success(r, name, { args });
  }
}
