// One agent's side of the conversation with the model: read its brief, make a call, read the result.
// A call is produced in two constrained steps in the model's own syntax: the tool's name (a grammar that
// admits only the role's tool names), then its arguments (a grammar from the tool's JSON schema). In a
// scripted run the same tokens are forced instead, through the same decode path.
import type { ScriptedCall } from "../protocol/turnScript";
import { AgentChatFormat } from "../runtime/agentChatFormat";
import type { SwarmAgent } from "../runtime/swarmAgent";
import type { CatalogTool } from "./toolCatalog";

export type ModelCall =
  | { readonly kind: "call"; readonly name: string; readonly argsText: string; readonly tokens: number }
  /** The pool had no cell for the agent's next token: it is paused until cells are freed. */
  | { readonly kind: "kv-full"; readonly tokens: number }
  /** The model produced something that is not a call of one of its tools. */
  | { readonly kind: "malformed"; readonly text: string; readonly reason: string; readonly tokens: number };

export interface AgentCallsOptions {
  /** Most tokens for one call's arguments. */
  readonly maxArgTokens: number;
  readonly temperature: number;
  readonly seed: number;
  /** Scripted calls (deterministic runs); when they run out the agent finishes. */
  readonly script?: readonly ScriptedCall[];
  readonly signal?: AbortSignal;
}

export class AgentCalls {
  private scriptIndex = 0;
  private readonly nameGrammar: string;

  constructor(
    private readonly agent: SwarmAgent,
    private readonly format: AgentChatFormat,
    private readonly tools: readonly CatalogTool[],
    private readonly options: AgentCallsOptions,
  ) {
    this.nameGrammar = AgentChatFormat.nameGrammar(tools.map((t) => t.name));
  }

  /** Reads the agent's brief and opens its first call. */
  open(brief: string): Promise<void> {
    return this.agent.append(this.format.openingTokens(brief));
  }

  /** Reads a call's result (and whatever arrives with it) and opens the next call. */
  answer(resultJson: string): Promise<void> {
    return this.agent.append(this.format.resultTokens(resultJson));
  }

  next(): Promise<ModelCall> {
    return this.options.script !== undefined ? this.nextScripted(this.options.script) : this.nextSampled();
  }

  private async nextSampled(): Promise<ModelCall> {
    const { signal } = this.options;
    const sampling = { temperature: this.options.temperature, seed: this.options.seed };
    const name = await this.agent.generate({
      maxTokens: 32,
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
    await this.agent.append(this.format.paramsPrefixTokens());
    const args = await this.agent.generate({
      maxTokens: this.options.maxArgTokens,
      jsonSchema: tool.jsonSchema,
      sampling,
      ...(signal ? { signal } : {}),
    });
    const tokens = name.tokens.length + args.tokens.length;
    if (args.stopReason === "kv-full") return { kind: "kv-full", tokens };
    if (args.stopReason === "max-tokens") {
      return {
        kind: "malformed",
        text: `${tool.name} ${args.text}`,
        reason: `the arguments of ${tool.name} were cut off at ${this.options.maxArgTokens} tokens; keep them short`,
        tokens,
      };
    }
    return { kind: "call", name: tool.name, argsText: args.text, tokens };
  }

  private async nextScripted(script: readonly ScriptedCall[]): Promise<ModelCall> {
    const step: ScriptedCall = script[this.scriptIndex++] ?? {
      tool: "finish",
      args: { summary: "My scripted turns are done." },
    };
    const nameTokens = this.format.tokenize(step.tool);
    const name = await this.agent.generate({ maxTokens: nameTokens.length, forcedTokens: nameTokens });
    if (name.stopReason === "kv-full") return { kind: "kv-full", tokens: name.tokens.length };
    await this.agent.append(this.format.paramsPrefixTokens());
    const argsText = step.rawArgs ?? JSON.stringify(step.args ?? {});
    const argTokens = this.format.tokenize(argsText);
    const args = await this.agent.generate({ maxTokens: argTokens.length, forcedTokens: argTokens });
    const tokens = name.tokens.length + args.tokens.length;
    if (args.stopReason === "kv-full") return { kind: "kv-full", tokens };
    return { kind: "call", name: step.tool, argsText, tokens };
  }
}
