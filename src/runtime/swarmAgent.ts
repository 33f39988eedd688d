// An agent: a fork of the trunk (or of another agent) that reads, generates and is released on its own.
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { GenerateResult } from "../protocol/runtime";
import { generateOnSequence, type GenerateRequest } from "./generateOnSequence";
import type { SwarmSequence } from "./swarmSequence";

export type AgentRole = "agent" | "synthesist";

export class SwarmAgent {
  constructor(
    /** @internal the sequence behind the agent; only the swarm context uses it. */
    readonly slot: SwarmSequence,
    readonly role: AgentRole,
    /** The agent (or "trunk") this one was forked from. */
    readonly parentId: string,
    private readonly onRelease: (agent: SwarmAgent) => Promise<void>,
  ) {}

  get id(): string {
    return this.slot.id;
  }

  /** True after a `kv-full` stop, until the agent generates again. */
  get paused(): boolean {
    return this.slot.paused;
  }

  get released(): boolean {
    return this.slot.released;
  }

  /** The agent's whole context: the trunk it was forked from, then its own tokens. */
  get tokens(): Token[] {
    return this.slot.tokens;
  }

  /** KV cells the pool could give this agent now (its admission), without touching what others are promised. */
  room(): number {
    return this.slot.shared.admission.availableFor(this.slot.id);
  }

  /** Reads text or tokens into the agent's private cells (a tool result, a message from another agent). */
  append(input: string | readonly Token[]): Promise<void> {
    return this.slot.exclusive("append", () => this.slot.appendTokens(this.slot.tokenize(input)));
  }

  /**
   * Generates up to `maxTokens`. Agents that generate at the same time share one `llama_decode` per step.
   * A full pool is not an error: the result's stopReason is "kv-full" and the context emits a `kv-full` event.
   */
  generate(request: GenerateRequest): Promise<GenerateResult> {
    return this.slot.exclusive("generate", () => generateOnSequence(this.slot, request));
  }

  /** Frees the agent's private cells; cells it shares stay while another owner remains. */
  release(): Promise<void> {
    return this.onRelease(this);
  }
}
