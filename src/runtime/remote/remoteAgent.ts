// An agent on a remote engine: its context is a token list held here (the trunk's, then its own), sent whole with
// each request. One thing at a time, like a local agent: an append during a generation is refused, not merged.
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { GenerateResult } from "../../protocol/runtime";
import type { AgentRole, EngineAgent } from "../port/engine";
import type { GenerateRequest } from "../port/engineShapes";
import { runExclusive } from "../exclusiveUse";
import { KvAdmissionError } from "../runtimeErrors";
import type { RemoteGeneration } from "./remoteGeneration";

/** What the context does for its agents. */
export interface RemoteAgentHost {
  room(agent: RemoteAgent): number;
  tokenize(input: string | readonly Token[]): Token[];
  generate(agent: RemoteAgent, request: GenerateRequest): Promise<RemoteGeneration>;
  release(agent: RemoteAgent): Promise<void>;
}

export class RemoteAgent implements EngineAgent {
  private context: Token[];
  private parent: string;
  busy = false;
  paused = false;
  released = false;

  constructor(
    readonly id: string,
    readonly role: AgentRole,
    parentId: string,
    tokens: Token[],
    private readonly host: RemoteAgentHost,
  ) {
    this.context = tokens;
    this.parent = parentId;
  }

  get parentId(): string {
    return this.parent;
  }

  get tokens(): Token[] {
    return [...this.context];
  }

  room(): number {
    return this.host.room(this);
  }

  append(input: string | readonly Token[]): Promise<void> {
    return this.exclusive("append", async () => {
      const tokens = this.host.tokenize(input);
      const room = this.room();
      if (tokens.length > room) {
        throw new KvAdmissionError(
          `${this.id} cannot append ${tokens.length} tokens: the engine's context per request leaves ${room}. ` +
            "Start the server with a larger context, or lower the agents' share.",
          tokens.length,
          room,
        );
      }
      this.context = [...this.context, ...tokens];
    });
  }

  generate(request: GenerateRequest): Promise<GenerateResult> {
    return this.exclusive("generate", async () => {
      this.paused = false;
      const { result, context } = await this.host.generate(this, request);
      this.context = context;
      this.paused = result.stopReason === "kv-full";
      return result;
    });
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await this.host.release(this);
  }

  /** @internal A compaction: the same agent starts again from `tokens` (the trunk). */
  restart(tokens: Token[], parentId: string): void {
    this.context = tokens;
    this.parent = parentId;
    this.paused = false;
  }

  private exclusive<T>(what: string, work: () => Promise<T>): Promise<T> {
    return runExclusive(this, what, work);
  }
}
