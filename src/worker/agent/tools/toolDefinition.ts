// One tool, defined once: its name, kind, description, argument schema, a typed `run`, and what its result
// means to the loop (the lane line, loop inputs, progress, board entries, the end of the agent's work).
// `defineTool` turns a definition into a catalogue entry whose `call` is parse -> run -> meaning, the arguments
// parsed once; the generic types stay inside the closure, so the catalogue needs no casts.
import { z } from "zod";
import type { BoardEntry } from "../../../protocol/board";
import type { LoopInput } from "../../../protocol/agentLoop";
import type { ToolError } from "../../../protocol/tools";
import { formatZodIssues } from "../../../protocol/zodIssues";
import { knownToolError, toToolError } from "../../../workspace/toolErrors";
import type { ToolContext } from "./toolContext";

export type ToolKind = "workspace" | "board" | "control" | "delegate" | "web";

export interface CallProgress {
  readonly finding?: boolean;
  readonly diff?: boolean;
  readonly testChange?: boolean;
}

/** What a result means to the agent loop. */
export interface CallMeaning {
  /** One line for the lane. */
  readonly summary: string;
  /** What the agent reads back (JSON-serialisable); default: the result itself. */
  readonly reply?: unknown;
  /** False when the call did not do what was asked: the agent reads `error` instead of the reply. */
  readonly ok?: boolean;
  /** Why it failed, or a setback the watchdog should count although the agent reads the reply. */
  readonly error?: string;
  /** Loop inputs this outcome implies, applied in order where the loop accepts them. */
  readonly loopInputs?: readonly LoopInput[];
  readonly progress?: CallProgress;
  /** Board entries the call posted (shown in the feed as they land). */
  readonly posted?: readonly BoardEntry[];
  /** The agent ended its work, with this summary. */
  readonly finished?: string;
  readonly report?: { readonly title: string; readonly body: string };
}

export interface CallOutcome {
  readonly ok: boolean;
  /** What the agent reads back (JSON-serialisable). */
  readonly result: unknown;
  readonly summary: string;
  readonly loopInputs: readonly LoopInput[];
  readonly progress: CallProgress;
  readonly error?: string;
  /** Parsed arguments (for the watchdog's repeat check), when they parsed. */
  readonly args?: unknown;
  readonly posted: readonly BoardEntry[];
  readonly finished?: string;
  readonly report?: { readonly title: string; readonly body: string };
}

export interface ToolDefinition<Context, Schema extends z.ZodType, Result> {
  readonly name: string;
  readonly kind: ToolKind;
  readonly description: string;
  readonly args: Schema;
  /** Does the work; throws what went wrong (a ToolFailure, a refused path, a plain Error). */
  run(ctx: Context, args: z.output<Schema>): Promise<Result>;
  meaning(result: Result, args: z.output<Schema>): CallMeaning;
}

/** A run without its meaning: the parsed arguments and the result, or the error as data. */
export type ToolRun =
  | { readonly ok: true; readonly args: unknown; readonly result: unknown }
  | { readonly ok: false; readonly args?: unknown; readonly error: ToolError };

/** A tool as the catalogue holds it. */
export interface CatalogTool<Context = ToolContext> {
  readonly name: string;
  readonly kind: ToolKind;
  readonly description: string;
  readonly schema: z.ZodType;
  /** JSON schema of the arguments (input side), for the grammar and the trunk's tool docs. */
  readonly jsonSchema: object;
  /** Parses the arguments, runs the tool and says what its result means; a failure is an outcome, never a throw. */
  call(ctx: Context, rawArgs: unknown): Promise<CallOutcome>;
  /** Parses and runs, without the meaning (what the workspace's own tests check). */
  run(ctx: Context, rawArgs: unknown): Promise<ToolRun>;
}

export function failedCall(error: string, args?: unknown): CallOutcome {
  return {
    ok: false,
    result: { error },
    summary: error.length > 160 ? error.slice(0, 157) + "..." : error,
    loopInputs: [],
    progress: {},
    error,
    posted: [],
    ...(args !== undefined ? { args } : {}),
  };
}

function outcomeOf(meaning: CallMeaning, result: unknown, args: unknown): CallOutcome {
  const ok = meaning.ok ?? true;
  if (!ok) return { ...failedCall(meaning.error ?? meaning.summary, args), summary: meaning.summary };
  return {
    ok,
    result: meaning.reply ?? result,
    summary: meaning.summary,
    loopInputs: meaning.loopInputs ?? [],
    progress: meaning.progress ?? {},
    posted: meaning.posted ?? [],
    args,
    ...(meaning.error !== undefined ? { error: meaning.error } : {}),
    ...(meaning.finished !== undefined ? { finished: meaning.finished } : {}),
    ...(meaning.report !== undefined ? { report: meaning.report } : {}),
  };
}

/** The text the agent reads for a thrown error: a workspace tool's by its ToolError code, the others' by name. */
function failureText(kind: ToolKind, name: string, error: unknown): string {
  const known = kind === "workspace" ? toToolError(error) : knownToolError(error);
  if (known !== undefined) return `${known.code}: ${known.message}`;
  return `${name}: ${error instanceof Error ? error.message : String(error)}`;
}

export function defineTool<Context, Schema extends z.ZodType, Result>(
  def: ToolDefinition<Context, Schema, Result>,
): CatalogTool<Context> {
  const { $schema: _drop, ...jsonSchema } = z.toJSONSchema(def.args, { io: "input" });
  const parse = (rawArgs: unknown) => def.args.safeParse(rawArgs ?? {});
  const invalid = (error: z.ZodError) => `invalid-args: ${def.name}: ${formatZodIssues(error, "(args)")}`;
  return {
    name: def.name,
    kind: def.kind,
    description: def.description,
    schema: def.args,
    jsonSchema,
    async call(ctx, rawArgs) {
      const parsed = parse(rawArgs);
      if (!parsed.success) return failedCall(invalid(parsed.error));
      let result: Result;
      try {
        result = await def.run(ctx, parsed.data);
      } catch (error) {
        return failedCall(failureText(def.kind, def.name, error), parsed.data);
      }
      return outcomeOf(def.meaning(result, parsed.data), result, parsed.data);
    },
    async run(ctx, rawArgs) {
      const parsed = parse(rawArgs);
      if (!parsed.success) return { ok: false, error: { code: "invalid-args", message: invalid(parsed.error) } };
      try {
        return { ok: true, args: parsed.data, result: await def.run(ctx, parsed.data) };
      } catch (error) {
        return { ok: false, args: parsed.data, error: toToolError(error) };
      }
    },
  };
}
