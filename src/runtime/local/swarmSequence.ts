// One llama.cpp sequence of the swarm (the trunk or an agent) and the state every one of them needs: the
// token produced but not decoded yet, whether it is busy, and the shared accounting it reports to.
//
// Why one token stays pending: logits exist only for the batch that produced them, so a sequence that will be
// continued (by generation, or by an agent forked from it) must decode at least one token when it continues.
// Keeping the last token undecoded makes a fork free (it copies cells, decodes nothing) and puts every agent's
// first token into the same batch as the others'.
import type { LlamaContext, LlamaContextSequence, Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { KvFullEvent } from "../../protocol/runtime";
import type { CellLedger } from "./cellLedger";
import type { GenerationMeter } from "./generationMeter";
import type { KvAdmission } from "./kvAdmission";
import type { SwarmModel } from "../loadModel";
import { runExclusive } from "../exclusiveUse";
import { KvAdmissionError } from "../runtimeErrors";
import type { StepBarrier } from "./stepBarrier";
import { decodeInSteps } from "./steppedDecode";

/** What all sequences of one swarm context share. */
export interface SwarmShared {
  readonly model: SwarmModel;
  readonly context: LlamaContext;
  readonly ledger: CellLedger;
  readonly admission: KvAdmission;
  readonly barrier: StepBarrier;
  readonly meter: GenerationMeter;
  emitKvFull(event: KvFullEvent): void;
}

export class SwarmSequence {
  /** Produced (or appended) but not decoded yet; decoded first when the sequence continues. */
  pending: Token[] = [];
  busy = false;
  paused = false;
  released = false;

  constructor(
    /** The id in the pool's ledger and admission: the swarm's prefix, then its name (pool: swarmPool.ts). */
    readonly id: string,
    readonly sequence: LlamaContextSequence,
    readonly shared: SwarmShared,
    /** The name its swarm knows it by ("trunk", "agent-1"). */
    readonly name: string = id,
  ) {}

  /** Everything this sequence has said or read, decoded or pending. */
  get tokens(): Token[] {
    return [...this.sequence.contextTokens, ...this.pending];
  }

  /** Runs `work` with the sequence marked busy, refusing when it is released or already busy. */
  exclusive<T>(what: string, work: () => Promise<T>): Promise<T> {
    return runExclusive(this, what, work);
  }

  /** Decodes `tokens` after what is pending, keeping the last token pending. */
  async appendTokens(tokens: readonly Token[]): Promise<void> {
    const all = [...this.pending, ...tokens];
    const toDecode = all.slice(0, -1);
    if (toDecode.length > 0) {
      const { admission } = this.shared;
      if (!admission.tryTake(this.id, toDecode.length)) {
        const available = admission.availableFor(this.id);
        throw new KvAdmissionError(
          `${this.id} cannot append ${toDecode.length} tokens: only ${available} KV cells are free for it. ` +
            admission.fullAdvice(this.id),
          toDecode.length,
          available,
        );
      }
      // In the pool's steps: a long append goes in chunks beside the generating agents (steppedDecode.ts).
      await decodeInSteps(this, toDecode);
    }
    this.pending = all.slice(-1);
  }

  tokenize(input: string | readonly Token[]): Token[] {
    return typeof input === "string" ? this.shared.model.tokenize(input) : [...input];
  }
}
