// Compaction by re-fork: when an agent's private tail reaches its share of the pool, what it must not lose is
// written as a compact brief, its cells are released and it is forked again from the trunk with that brief.
// The brief is a pure function of the board and the agent's record, so the same state always gives the same
// brief, and a test can say exactly what an agent still knows after a compaction.
import type { BoardEntry } from "../protocol/board";
import { isFindingKind } from "../protocol/findingKinds";
import type { DeliveredMessage } from "../protocol/messages";
import type { Lease } from "./claims";
import { describeScope } from "./scopes";

/** One call the agent made and what it read back. */
export interface RecordedCall {
  readonly tool: string;
  /** The arguments as the model wrote them (JSON text, or the malformed text). */
  readonly args: string;
  readonly ok: boolean;
  /** What the agent read after the call: the result or error, as JSON text. */
  readonly readback: string;
}

/** What the worker keeps of one agent across compactions (its context is gone; this is not). */
export interface AgentRecord {
  readonly id: string;
  /** The brief the agent was first given: who it is, its role, its task. */
  readonly firstBrief: string;
  readonly steps: number;
  readonly compactions: number;
  /** Every call, oldest first. */
  readonly calls: readonly RecordedCall[];
}

/** What the board says about the agent right now. */
export interface BoardState {
  readonly entries: readonly BoardEntry[];
  /** The agent's live claims. */
  readonly claims: readonly Lease[];
  /** Every message posted in the swarm, in posting order. */
  readonly messages: readonly DeliveredMessage[];
}

/** How much of each part the brief keeps, newest first; shrunk step by step until the brief fits. */
interface Keep {
  readonly calls: number;
  readonly notes: number;
  readonly messages: number;
  readonly files: number;
  /** Characters of one call's arguments or readback. */
  readonly callChars: number;
  /** Characters of the newest call's readback: the result the agent has not acted on yet. */
  readonly lastChars: number;
  /** Characters of the agent's first brief (a stage's input can make it long; its head says the task). */
  readonly briefChars: number;
}

const tools = { written: new Set(["write_file", "edit_file"]), read: new Set(["read_file", "list_dir"]) };

function cut(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, Math.max(0, chars))}[... ${text.length - chars} chars cut]`;
}

function pathsOf(args: string): string[] {
  try {
    const value = JSON.parse(args) as { path?: unknown; paths?: unknown };
    const many = Array.isArray(value.paths) ? value.paths : [];
    return [value.path, ...many].filter((p): p is string => typeof p === "string" && p.length > 0);
  } catch {
    return [];
  }
}

/** Files the agent touched, in the order it first touched them, with what it did to each. */
export function filesTouched(calls: readonly RecordedCall[]): Array<{ path: string; written: boolean }> {
  const files = new Map<string, boolean>();
  for (const call of calls) {
    if (!call.ok || (!tools.written.has(call.tool) && !tools.read.has(call.tool))) continue;
    for (const p of pathsOf(call.args)) files.set(p, (files.get(p) ?? false) || tools.written.has(call.tool));
  }
  return [...files].map(([path, written]) => ({ path, written }));
}

function section(title: string, lines: readonly string[], total: number): string[] {
  if (lines.length === 0) return [];
  const older = total - lines.length;
  return [`${title}${older > 0 ? ` (newest ${lines.length} of ${total})` : ""}:`, ...lines];
}

function render(record: AgentRecord, board: BoardState, keep: Keep): string {
  const { id } = record;
  const claims = board.claims.map((c) => `- ${c.claimId}: ${describeScope(c.scope)}`);
  const files = filesTouched(record.calls);
  const notes = board.entries.filter((e) => e.author === id && isFindingKind(e.kind));
  const messages = board.messages.filter((m) => m.from !== id && (m.to === "swarm" || m.to.agent === id));
  const sent = board.messages.filter((m) => m.from === id);
  const calls = record.calls.slice(-keep.calls);
  return [
    `You are ${id}. Your context was compacted (compaction ${record.compactions + 1}, after ${record.steps} ` +
      "steps): this brief is what you know of your work so far. Carry on from where it ends; do not redo what it says is done.",
    ...(claims.length > 0 ? ["Your claims (still yours):", ...claims] : ["You hold no claim."]),
    "Your first brief:",
    cut(record.firstBrief, keep.briefChars),
    ...section(
      "Files you touched",
      files.slice(-keep.files).map((f) => `- ${f.path} (${f.written ? "written" : "read"})`),
      files.length,
    ),
    ...section(
      "Your findings",
      notes.slice(-keep.notes).map((e) => `- ${e.kind}: ${e.text}`),
      notes.length,
    ),
    ...section(
      "Messages to you",
      messages.slice(-keep.messages).map((m) => `- #${m.seq} from ${m.from}: ${m.text}`),
      messages.length,
    ),
    ...section(
      "Messages you sent",
      sent.slice(-keep.messages).map((m) => `- #${m.seq} to ${m.to === "swarm" ? "swarm" : m.to.agent}: ${m.text}`),
      sent.length,
    ),
    ...section(
      "Your last calls and what they returned",
      calls.map((c, i) => {
        const chars = i === calls.length - 1 ? keep.lastChars : keep.callChars;
        return `- ${c.tool} ${cut(c.args, keep.callChars)} -> ${cut(c.readback, chars)}`;
      }),
      record.calls.length,
    ),
  ].join("\n");
}

/**
 * The next, smaller keep: the bulk (call texts, then the number of calls) shrinks before the files, the findings and
 * the messages, which are short and what the agent most needs; the first brief is cut to its head (at least 400
 * characters) before any of those; undefined when nothing is left to shrink.
 */
function smaller(keep: Keep): Keep | undefined {
  const half = (n: number) => Math.floor(n / 2);
  if (keep.lastChars > 80 || keep.callChars > 40)
    return { ...keep, callChars: Math.max(40, half(keep.callChars)), lastChars: Math.max(80, half(keep.lastChars)) };
  if (keep.briefChars > 400) return { ...keep, briefChars: Math.max(400, half(keep.briefChars)) };
  if (keep.calls > 1) return { ...keep, calls: half(keep.calls) };
  if (keep.files > 2) return { ...keep, files: half(keep.files) };
  if (keep.notes > 1) return { ...keep, notes: half(keep.notes) };
  if (keep.messages > 1) return { ...keep, messages: half(keep.messages) };
  // Last of all the newest message goes: what another agent told this one is what it cannot find again by itself.
  if (keep.calls + keep.files + keep.notes > 0) return { ...keep, calls: 0, files: 0, notes: 0 };
  if (keep.briefChars > 120) return { ...keep, briefChars: 120 };
  if (keep.messages > 0) return { ...keep, messages: 0 };
  return undefined;
}

/**
 * The brief an agent is re-forked with: who it is, its first brief, its claims, the files it touched, its findings,
 * its messages and its last calls with their results, newest kept, in at most `maxChars` characters (the caller
 * derives them from the agent's share of the pool). The parts shrink together until the brief fits; if even the
 * bare brief does not, it is cut at `maxChars` and says so.
 */
export function compactBrief(record: AgentRecord, board: BoardState, maxChars: number): string {
  const callChars = Math.floor(maxChars / 8);
  const briefChars = record.firstBrief.length;
  let keep: Keep | undefined = {
    calls: 8,
    notes: 8,
    messages: 8,
    files: 32,
    callChars,
    lastChars: 4 * callChars,
    briefChars,
  };
  let text = render(record, board, keep);
  while (text.length > maxChars && keep !== undefined) {
    keep = smaller(keep);
    if (keep !== undefined) text = render(record, board, keep);
  }
  const marker = 20 + String(text.length).length;
  return text.length <= maxChars ? text : cut(text, maxChars - marker);
}

/** Cells of its share an agent keeps free for its next call: a quarter of the share. */
export function callReserve(shareCells: number): number {
  return Math.floor(shareCells / 4);
}

/** Whether reading `incoming` more tokens would leave the agent less than its call reserve: compact first. */
export function compactionDue(tailCells: number, incoming: number, shareCells: number): boolean {
  return tailCells + incoming > shareCells - callReserve(shareCells);
}

/** Most tokens a compact brief may take: a third of the share, so the agent has room to work after it. */
export function briefTokenLimit(shareCells: number): number {
  return Math.floor(shareCells / 3);
}
