// An agent: a fork of the trunk (or of another agent) that reads, generates and is released on its own.
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { GenerateResult } from "../../protocol/runtime";
import { generateOnSequence } from "./generateOnSequence";
import type { AgentRole, EngineAgent } from "../port/engine";
import type { GenerateRequest } from "../port/engineShapes";
import type { SwarmSequence } from "./swarmSequence";

/** The local engine's agent: one llama.cpp sequence of the swarm context. */
export class SwarmAgent implements EngineAgent {
  private current: SwarmSequence;
  private parent: string;

  constructor(
    slot: SwarmSequence,
    readonly role: AgentRole,
    parentId: string,
    private readonly onRelease: (agent: SwarmAgent) => Promise<void>,
  ) {
    this.current = slot;
    this.parent = parentId;
  }

  /** @internal the sequence behind the agent; only the swarm context uses it. */
  get slot(): SwarmSequence {
    return this.current;
  }

  /** The agent (or "trunk") this one was forked from, the trunk after a compaction. */
  get parentId(): string {
    return this.parent;
  }

  /**
   * @internal A compaction gave the agent a fresh sequence forked from the trunk: the same agent (id, caller's
   * handle) goes on in it. Only the swarm context calls this.
   */
  rebind(slot: SwarmSequence, parentId: string): void {
    this.current = slot;
    this.parent = parentId;
  }

  get id(): string {
    return this.slot.name;
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
