// One agent's side of the conversation with the model: read its brief, make a call, read the result.
// A call is produced in two constrained steps in the model's own syntax: the tool's name (a grammar that
// admits only the role's tool names), then its arguments (a grammar from the tool's JSON schema). In a
// scripted run the same tokens are forced instead, through the same decode path.
import { callDeadlineWatch, callProgressReporter } from "./callWatchers";
import type { ScriptedCall } from "../../protocol/turnScript";
import { AgentChatFormat } from "../../runtime/modelServices";
import type { EngineAgent } from "../../runtime/port/engine";
import { AgentThinking, type Thought, type ThinkingOptions } from "./agentThinking";
import type { CatalogTool } from "./tools/toolDefinition";

/** What the agent wrote in one turn; `tokens` counts all of it, its thought (free text before the call) included. */
export type ModelCall =
  | {
      readonly kind: "call";
      readonly name: string;
      readonly argsText: string;
      readonly tokens: number;
      readonly thought?: Thought;
    }
  /** The pool had no cell for the agent's next token: it is paused until cells are freed. */
  | { readonly kind: "kv-full"; readonly tokens: number }
  /** The model produced something that is not a call of one of its tools. */
  | {
      readonly kind: "malformed";
      readonly text: string;
      readonly reason: string;
      readonly tokens: number;
      readonly thought?: Thought;
    };

function withThought(call: ModelCall, thought: Thought): ModelCall {
  const tokens = call.tokens + thought.tokens;
  return call.kind === "kv-full" ? { ...call, tokens } : { ...call, tokens, thought };
}

/** A runtime error that says the KV pool had no cell for the agent. */
export function isKvFull(error: unknown): boolean {
  return (error as { code?: unknown })?.code === "kv-full";
}

export interface AgentCallsOptions {
  /**
   * Most tokens the agent may still add (what is left of its share of the pool). A call's arguments get this,
   * bounded by what the pool can give the agent now, less what reading the reply takes.
   */
  readonly maxArgTokens: () => number;
  readonly temperature: number;
  readonly seed: number;
  /** Scripted calls (deterministic runs); when they run out the agent finishes. */
  readonly script?: readonly ScriptedCall[];
  readonly signal?: AbortSignal;
  /**
   * Why a call being generated must end now (e.g. the wall-clock budget), or undefined to go on. Polled while the
   * arguments are generated: a call's room is the agent's whole share, so it is not left to finish on its own.
   */
  readonly callDeadline?: () => string | undefined;
  /** How often a call in flight asks `callDeadline`, in ms (default 200). */
  readonly deadlinePollMs?: number;
  /** Free text before each call (src/worker/agent/agentThinking.ts): its cap and its live stream. */
  readonly thinking?: ThinkingOptions;
  /** A call's arguments as they are written (what it has so far, the call's tokens so far), for its lane. */
  readonly onCallProgress?: (tool: string, argsSoFar: string, tokens: number) => void;
  /** Least time between two `onCallProgress` reports of one call, in ms (default 300). */
  readonly callProgressMs?: number;
}

export class AgentCalls {
  private scriptIndex = 0;
  private readonly nameGrammar: string;
  private readonly maxNameTokens: number;
  /** The tool of the call whose result is read next; a sub-agent opens inside its parent's spawn call. */
  private lastCall = "spawn_subagent";
  private readonly thinking: AgentThinking;
  /** The piece read last opened the agent's text (it thinks before this call), not the call itself. */
  private thinkNext = false;
  /** The agent wrote text before the call whose result is read next (its turn's pieces differ in some families). */
  private thought = false;

  constructor(
    private readonly agent: EngineAgent,
    private readonly format: AgentChatFormat,
    private readonly tools: readonly CatalogTool[],
    private readonly options: AgentCallsOptions,
  ) {
    this.nameGrammar = AgentChatFormat.nameGrammar(tools.map((t) => t.name));
    // A grammar may reach a name through any split into tokens, one character per token at worst.
    this.maxNameTokens = Math.max(...tools.map((t) => t.name.length)) + 1;
    const room = () => Math.min(agent.room(), options.maxArgTokens());
    this.thinking = new AgentThinking(agent, format, options.thinking ?? {}, room);
  }

  /** Whether the agent writes text before its next call: the script says so, or the model may think. */
  private willThink(): boolean {
    const { script } = this.options;
    if (script !== undefined) return this.format.canThink && script[this.scriptIndex]?.think !== undefined;
    return this.thinking.sampledThinks();
  }

  /** Reads the agent's brief and opens its first call (or the text before it). */
  async open(brief: string): Promise<void> {
    const think = this.willThink();
    await this.agent.append(this.format.openingTokens(brief, think));
    this.thinkNext = think;
  }

  /** Reads a call's result (and whatever arrives with it) and opens the next call (or the text before it). */
  async answer(resultJson: string): Promise<void> {
    const think = this.willThink();
    await this.agent.append(
      this.format.resultTokens(resultJson, this.lastCall, { thought: this.thought, thinkNext: think }),
    );
    this.thinkNext = think;
  }

  /** Tokens reading a result with `answer` would take. */
  readCost(resultJson: string): number {
    const turns = { thought: this.thought, thinkNext: this.willThink() };
    return this.format.resultTokens(resultJson, this.lastCall, turns).length;
  }

  /** Tokens reading a brief with `open` would take. */
  briefCost(brief: string): number {
    return this.format.openingTokens(brief, this.willThink()).length;
  }

  async next(): Promise<ModelCall> {
    const { script } = this.options;
    const scriptedThink = script?.[this.scriptIndex]?.think;
    if (scriptedThink !== undefined && !this.format.canThink) {
      const tool = script![this.scriptIndex++]!.tool;
      const reason = `the ${this.format.wrapperName} chat format has no place for text before a call`;
      return { kind: "malformed", text: tool, reason, tokens: 0 };
    }
    let thought: Thought | undefined;
    this.thought = this.thinkNext;
    if (this.thinkNext) {
      this.thinkNext = false;
      const outcome = await this.think(scriptedThink);
      if ("kvFull" in outcome) return { kind: "kv-full", tokens: outcome.tokens };
      thought = outcome;
      try {
        await this.thinking.toCall();
      } catch (error) {
        if (!isKvFull(error)) throw error;
        return { kind: "kv-full", tokens: thought.tokens };
      }
    }
    const call = await (script !== undefined ? this.nextScripted(script) : this.nextSampled());
    return thought === undefined ? call : withThought(call, thought);
  }

  private async think(scripted: string | undefined) {
    if (scripted !== undefined) return this.thinking.forced(scripted);
    const sampling = { temperature: this.options.temperature, seed: this.options.seed };
    const deadline = callDeadlineWatch(this.options);
    return this.thinking.sampled(sampling, deadline.signal).finally(deadline.dispose);
  }

  private async nextSampled(): Promise<ModelCall> {
    const { signal } = this.options;
    const sampling = { temperature: this.options.temperature, seed: this.options.seed };
    const name = await this.agent.generate({
      maxTokens: this.maxNameTokens,
      gbnf: this.nameGrammar,
      sampling,
      ...(signal ? { signal } : {}),
    });
    if (name.stopReason === "kv-full") return { kind: "kv-full", tokens: name.tokens.length };
    const tool = this.tools.find((t) => t.name === name.text.trim());
    if (tool === undefined) {
      return {
        kind: "malformed",
        text: name.text,
        reason: `"${name.text}" is not one of your tools`,
        tokens: name.tokens.length,
      };
    }
    this.lastCall = tool.name;
    await this.agent.append(this.format.paramsPrefixTokens(this.thought));
    const room = this.argumentRoom(tool.name);
    if (room < 1) return this.tooLarge(tool.name, "", room, name.tokens.length);
    const deadline = callDeadlineWatch(this.options);
    const onText = callProgressReporter(this.options, tool.name, name.tokens.length);
    const args = await this.agent
      .generate({ maxTokens: room, jsonSchema: tool.jsonSchema, sampling, signal: deadline.signal, ...onText })
      .finally(deadline.dispose);
    const tokens = name.tokens.length + args.tokens.length;
    if (args.stopReason === "kv-full") return { kind: "kv-full", tokens };
    const ended = deadline.reason();
    if (args.stopReason === "aborted" && ended !== undefined) {
      return { kind: "malformed", text: `${tool.name} ${args.text}`, reason: `${ended}: the call was cut off`, tokens };
    }
    if (args.stopReason === "max-tokens") return this.tooLarge(tool.name, args.text, room, tokens);
    return { kind: "call", name: tool.name, argsText: args.text, tokens };
  }

  private tooLargeReason(toolName: string, room: number): string {
    return (
      `the arguments of ${toolName} did not fit: you have room for ${Math.max(0, room)} more tokens ` +
      "(your share of the KV cache); write a large file in parts (write_file the first part, then edit_file " +
      "blocks that add the rest), keep reports to what matters, or finish"
    );
  }

  private tooLarge(toolName: string, text: string, room: number, tokens: number): ModelCall {
    return { kind: "malformed", text: `${toolName} ${text}`, reason: this.tooLargeReason(toolName, room), tokens };
  }

  /** Tokens a call's arguments may take: the agent's room less what reading the tool error would take. */
  private argumentRoom(toolName: string): number {
    const room = Math.min(this.agent.room(), this.options.maxArgTokens());
    const error = JSON.stringify({ error: `invalid-call: ${this.tooLargeReason(toolName, room)}` });
    return room - this.format.resultTokens(error, toolName, { thought: this.thought }).length;
  }

  private async nextScripted(script: readonly ScriptedCall[]): Promise<ModelCall> {
    const step: ScriptedCall = script[this.scriptIndex++] ?? {
      tool: "finish",
      args: { summary: "My scripted turns are done." },
    };
    const nameTokens = this.format.tokenize(step.tool);
    const name = await this.agent.generate({ maxTokens: nameTokens.length, forcedTokens: nameTokens });
    if (name.stopReason === "kv-full") return { kind: "kv-full", tokens: name.tokens.length };
    this.lastCall = step.tool;
    await this.agent.append(this.format.paramsPrefixTokens(this.thought));
    const argsText = step.rawArgs ?? JSON.stringify(step.args ?? {});
    const argTokens = this.format.tokenize(argsText);
    // A scripted call meets the same room as a sampled one: it is cut where a model's would be.
    const room = this.argumentRoom(step.tool);
    if (room < 1) return this.tooLarge(step.tool, "", room, name.tokens.length);
    const maxTokens = Math.min(argTokens.length, room);
    const onText = callProgressReporter(this.options, step.tool, name.tokens.length);
    const args = await this.agent.generate({ maxTokens, forcedTokens: argTokens.slice(0, maxTokens), ...onText });
    const tokens = name.tokens.length + args.tokens.length;
    if (args.stopReason === "kv-full") return { kind: "kv-full", tokens };
    if (maxTokens < argTokens.length) return this.tooLarge(step.tool, args.text, room, tokens);
    return { kind: "call", name: step.tool, argsText, tokens };
  }
}
