// An agent's free text before its call, in its family's own place for it (Qwen3's <think>, plain text before the
// call for others; src/runtime/turnPieces.ts). The text is part of the agent's turn: it is decoded into its
// cells, counts against its share and budget, and streams to its lane as it is written. A free-running model's
// text ends where it closes its thought or starts a call in its own syntax (the stop strings; the tokens that
// spelled them are taken back, so the family's call prefix follows the text exactly once), at its end of turn,
// or at the cap; then the call prefix is read and the call is generated under its grammar as without thinking.
import type { AgentChatFormat } from "../../runtime/modelServices";
import type { EngineAgent } from "../../runtime/port/engine";
import type { GenerateResult, Sampling } from "../../protocol/runtime";

export interface Thought {
  readonly text: string;
  /** Tokens the text holds in the agent's context. */
  readonly tokens: number;
  /** Why the text was cut before the model ended it (the cap, with its number and what to do). */
  readonly cut?: string;
}

export type ThoughtOutcome = Thought | { readonly kvFull: true; readonly tokens: number };

export interface ThinkingOptions {
  /**
   * Most tokens of free text before each call (the recipe's budgets.thinkingTokens). 0 or absent: a free-running
   * model is forced straight into its call. A script's `think` is forced either way, under the same cap when set.
   */
  readonly maxTokens?: number;
  /** Live text: each new piece of the agent's text as it is written (the event throttle batches them). */
  readonly onText?: (delta: string, tokens: number) => void;
}

export class AgentThinking {
  constructor(
    private readonly agent: EngineAgent,
    private readonly format: AgentChatFormat,
    private readonly options: ThinkingOptions,
    /** Tokens the agent may still add (its share and what the pool can give it now). */
    private readonly room: () => number,
  ) {}

  /** Whether a free-running model writes text before its next call. */
  sampledThinks(): boolean {
    return this.format.canThink && (this.options.maxTokens ?? 0) > 0 && this.cap().tokens >= 1;
  }

  /** The most tokens the next thought may take: the setting, and half the agent's room (its call needs the rest). */
  private cap(): { tokens: number; why: string } {
    const room = this.room();
    const half = Math.floor(room / 2);
    const setting = this.options.maxTokens ?? 0;
    if (setting > 0 && setting <= half) {
      return { tokens: setting, why: "the recipe's budgets.thinkingTokens; think in shorter steps or raise it" };
    }
    return {
      tokens: Math.max(0, half),
      why: `half of the ${room} tokens left of your share; think in shorter steps, act, or finish`,
    };
  }

  private cutReason(cap: { tokens: number; why: string }): string {
    return `your thinking was cut at ${cap.tokens} tokens (${cap.why})`;
  }

  /** The model writes its text freely until it closes its thought, starts a call, ends its turn or meets the cap. */
  async sampled(sampling: Sampling, signal: AbortSignal): Promise<ThoughtOutcome> {
    const cap = this.cap();
    const stops = this.format.thinkingStops;
    const stream = this.stream(Math.max(0, ...stops.map((s) => s.length - 1)));
    const result = await this.agent.generate({
      maxTokens: Math.max(1, cap.tokens),
      sampling,
      stop: stops,
      dropStopText: true,
      onText: stream.onText,
      signal,
    });
    return this.end(result, stream, result.stopReason === "max-tokens" ? this.cutReason(cap) : undefined);
  }

  /** A scripted thought, forced token by token through the same decode path, under the same cap. */
  async forced(text: string): Promise<ThoughtOutcome> {
    const cap = this.cap();
    const tokens = this.format.tokenize(text);
    const count = Math.min(tokens.length, cap.tokens);
    if (count < 1) return { text: "", tokens: 0, cut: this.cutReason(cap) };
    const stream = this.stream(0);
    const result = await this.agent.generate({
      maxTokens: count,
      forcedTokens: tokens.slice(0, count),
      onText: stream.onText,
    });
    return this.end(result, stream, count < tokens.length ? this.cutReason(cap) : undefined);
  }

  /** Reads the family's thought close and call prefix after the text. */
  toCall(): Promise<void> {
    return this.agent.append(this.format.thinkingToCallTokens());
  }

  private end(result: GenerateResult, stream: TextStream, cut: string | undefined): ThoughtOutcome {
    if (result.stopReason === "kv-full") return { kvFull: true, tokens: result.tokens.length };
    stream.flush(result.text, result.tokens.length);
    return { text: result.text, tokens: result.tokens.length, ...(cut !== undefined ? { cut } : {}) };
  }

  /**
   * Passes the text on as it grows, holding back what could be the start of a stop string (so a half-written
   * `</think>` never reaches the lane).
   */
  private stream(holdBack: number): TextStream {
    let shown = 0;
    let counted = 0;
    const emit = (text: string, upTo: number, tokens: number, final: boolean) => {
      const delta = upTo > shown ? text.slice(shown, upTo) : "";
      const newTokens = Math.max(0, tokens - counted);
      if (delta === "" && !(final && newTokens > 0)) return;
      this.options.onText?.(delta, newTokens);
      shown = Math.max(shown, upTo);
      counted += newTokens;
    };
    return {
      onText: (text, tokens) => emit(text, text.length - holdBack, tokens, false),
      flush: (text, tokens) => emit(text, text.length, tokens, true),
    };
  }
}

interface TextStream {
  readonly onText: (text: string, tokens: number) => void;
  readonly flush: (text: string, tokens: number) => void;
}
