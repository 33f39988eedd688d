// Message delivery. Rules:
//   - swarm messages reach every agent that has joined when the message is posted, except the sender,
//     at the start of the agent's next loop iteration;
//   - direct messages reach their one recipient when its current tool call returns, or at the start of its
//     next iteration if that comes first (an agent between tool calls must not wait a whole act phase);
//   - each message is delivered exactly once to each recipient, in posting order within each channel;
//     at an iteration start everything pending comes out in posting order;
//   - every message is kept (`history`), delivered or not; posting a known id again changes nothing.
import type { BoardEntry } from "../protocol/board";
import type { DeliveredMessage, DeliveryPoint } from "../protocol/messages";

export class MessageRouter {
  private readonly members = new Set<string>();
  private readonly pending = new Map<string, DeliveredMessage[]>();
  private readonly kept: DeliveredMessage[] = [];
  private readonly knownIds = new Set<string>();

  join(agent: string): void {
    this.members.add(agent);
    if (!this.pending.has(agent)) this.pending.set(agent, []);
  }

  has(agent: string): boolean {
    return this.members.has(agent);
  }

  /** The agent stops receiving; what it had not taken stays in `history`. */
  leave(agent: string): void {
    this.members.delete(agent);
    this.pending.delete(agent);
  }

  /**
   * Routes a MESSAGE entry. Returns the delivered form, or undefined when the id was posted before.
   * Throws when the entry is not a MESSAGE or names an agent that has not joined.
   */
  post(entry: BoardEntry): DeliveredMessage | undefined {
    if (entry.kind !== "MESSAGE" || entry.to === undefined) {
      throw new Error(
        `Entry ${entry.id} is a ${entry.kind} without a recipient; only MESSAGE entries with \`to\` are routed.`,
      );
    }
    if (this.knownIds.has(entry.id)) return undefined;
    const target = entry.to;
    if (target !== "swarm" && !this.members.has(target.agent)) {
      throw new Error(
        `Message ${entry.id} is for agent "${target.agent}", which is not in the swarm (members: ${[...this.members].join(", ") || "none"}).`,
      );
    }
    const message: DeliveredMessage = {
      id: entry.id,
      from: entry.author,
      to: target,
      text: entry.text,
      time: entry.time,
      seq: this.kept.length + 1,
    };
    this.knownIds.add(entry.id);
    this.kept.push(message);
    const recipients = target === "swarm" ? [...this.members].filter((a) => a !== entry.author) : [target.agent];
    for (const agent of recipients) this.pending.get(agent)?.push(message);
    return message;
  }

  /** Takes what an agent should receive at this point; each message comes out once. */
  take(agent: string, point: DeliveryPoint): DeliveredMessage[] {
    const queue = this.pending.get(agent);
    if (queue === undefined) return [];
    if (point === "iteration-start") {
      this.pending.set(agent, []);
      return queue;
    }
    const direct = queue.filter((m) => m.to !== "swarm");
    this.pending.set(
      agent,
      queue.filter((m) => m.to === "swarm"),
    );
    return direct;
  }

  /** Messages waiting for an agent (not taken yet), without taking them. */
  pendingFor(agent: string): readonly DeliveredMessage[] {
    return this.pending.get(agent) ?? [];
  }

  /** Every message ever posted, in posting order. */
  history(): readonly DeliveredMessage[] {
    return this.kept;
  }
}

/** How delivered messages read in an agent's context. */
export function renderMessages(messages: readonly DeliveredMessage[]): string {
  return messages
    .map((m) => `[${m.to === "swarm" ? "swarm" : "direct"} #${m.seq} from ${m.from}] ${m.text}`)
    .join("\n");
}
