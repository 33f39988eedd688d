// One swarm's organisation in one object: the board, its durable store, the claim table, the message
// router and visibility. The worker's swarm loop talks to this; each piece stays usable on its own.
// An entry counts as posted only once the store has it (for the file store: written and fsynced), so
// every method that posts awaits the store before it changes what others can see.
import type { BoardEntry, BoardQuery, FileRef, ScopeInput, Visibility } from "../protocol/board";
import type { FindingKind } from "../protocol/findingKinds";
import type { DeliveredMessage, DeliveryPoint } from "../protocol/messages";
import { Board, entryId, makeEntry } from "./board";
import type { BoardStore } from "./boardStore";
import { ClaimTable, claimEntry, conflictNotices, releaseEntry, type Lease } from "./claims";
import { grepBoard, type TextMatch } from "./grepBoard";
import { MessageRouter } from "./messages";
import { ReviewLedger } from "./reviewState";
import { rosterLines, type RosterMember } from "./roster";
import { describeScope, parseScope } from "./scopes";
import { BoardFeed, visibleEntries, type VisibilityRule } from "./visibility";

export interface SwarmBoardOptions {
  readonly store: BoardStore;
  readonly visibility: Visibility;
  /** How long a claim lasts without renewal (ms). */
  readonly leaseMs: number;
  /** How grep_board runs agents' patterns (the worker's has a time limit); default the plain match. */
  readonly textMatch?: TextMatch;
  /** Author of the notes the board itself sends (claim conflicts); default `swarmboard`. */
  readonly systemAuthor?: string;
}

export interface FindingDraft {
  readonly author: string;
  readonly kind: FindingKind;
  readonly text: string;
  readonly time: number;
  readonly scope?: ScopeInput;
  readonly refs?: readonly FileRef[];
}

export type ClaimOutcome =
  | { readonly granted: true; readonly lease: Lease; readonly entry: BoardEntry }
  | { readonly granted: false; readonly reason: string; readonly holders: readonly string[] };

export class SwarmBoard {
  readonly board: Board;
  readonly claims: ClaimTable;
  readonly messages = new MessageRouter();
  /** Review between agents: approvals pinned to commits, change requests (reviewState.ts). */
  readonly reviews = new ReviewLedger((a) => this.padOf(a));
  private readonly counters = new Map<string, number>();
  private readonly synthesists = new Set<string>();
  private readonly feeds = new Map<string, BoardFeed>();
  /** Agents on the board now, with their role's name (for the roster). */
  private readonly members = new Map<string, string | undefined>();
  /** Sub-agent -> the agent whose pad it writes on (its family's first agent). */
  private readonly pads = new Map<string, string>();
  private readonly systemAuthor: string;

  /** Builds the organisation from what the store already holds (board and claims; messages as history). */
  constructor(private readonly options: SwarmBoardOptions) {
    this.systemAuthor = options.systemAuthor ?? "swarmboard";
    this.board = Board.fromEntries(options.store.entries());
    this.claims = ClaimTable.fromBoard(this.board.entries(), { leaseMs: options.leaseMs });
    for (const e of this.board.entries()) this.noteId(e);
  }

  private get rule(): VisibilityRule {
    return { visibility: this.options.visibility, synthesists: this.synthesists, padOf: (a) => this.padOf(a) };
  }

  /** A sub-agent joins with its `parent`: it writes on the parent's pad. */
  join(agent: string, role: { isSynthesist: boolean; name?: string; parent?: string } = { isSynthesist: false }): void {
    this.messages.join(agent);
    this.members.set(agent, role.name);
    if (role.isSynthesist) this.synthesists.add(agent);
    if (role.parent !== undefined) this.pads.set(agent, this.padOf(role.parent));
    this.feeds.set(agent, new BoardFeed({ agent, isSynthesist: role.isSynthesist }, this.rule));
  }

  leave(agent: string): void {
    this.messages.leave(agent);
    this.members.delete(agent);
    this.feeds.delete(agent);
  }

  /** The agent whose pad `agent` writes on: itself, or for a sub-agent the first agent of its family. */
  padOf(agent: string): string {
    return this.pads.get(agent) ?? agent;
  }

  /** A fresh entry id for an author (`<author>-<n>`), never one the board holds. */
  nextId(author: string): string {
    const n = (this.counters.get(author) ?? 0) + 1;
    this.counters.set(author, n);
    return entryId(author, n);
  }

  async postFinding(draft: FindingDraft): Promise<BoardEntry> {
    return this.commit(
      makeEntry({ id: this.nextId(draft.author), ...draft, refs: draft.refs === undefined ? [] : [...draft.refs] }),
    );
  }

  /** Claims a scope; a refusal tells both sides by direct message. */
  async claim(agent: string, scope: ScopeInput, text: string, now: number): Promise<ClaimOutcome> {
    const request = { claimId: this.nextId(agent), agent, scope: parseScope(scope), now };
    const decision = this.claims.claim(request);
    if (!decision.granted) {
      for (const notice of conflictNotices(request, decision)) {
        if (this.messages.has(notice.to)) await this.send(this.systemAuthor, notice.to, notice.text, now);
      }
      return { granted: false, reason: decision.reason, holders: decision.conflicts.map((c) => c.holder.agent) };
    }
    try {
      return { granted: true, lease: decision.lease, entry: await this.commit(claimEntry(decision.lease, text)) };
    } catch (e) {
      this.claims.release(decision.lease.claimId);
      throw e;
    }
  }

  /** Renews an agent's leases: call it when the watchdog sees progress. */
  renew(agent: string, now: number): Lease[] {
    return this.claims.renewAgent(agent, now);
  }

  async release(claimId: string, reason: string, now: number): Promise<BoardEntry | undefined> {
    const lease = this.claims.release(claimId);
    return lease === undefined ? undefined : this.commit(releaseEntry(lease, this.nextId(lease.agent), now, reason));
  }

  /** Releases everything an agent holds (finished, failed, stalled). */
  async releaseAgent(agent: string, reason: string, now: number): Promise<BoardEntry[]> {
    const out: BoardEntry[] = [];
    for (const lease of this.claims.releaseAgent(agent))
      out.push(await this.commit(releaseEntry(lease, this.nextId(agent), now, reason)));
    return out;
  }

  /** Sends to `swarm` or to one agent; throws, posting nothing, when the agent is not in the swarm. */
  async send(from: string, to: string, text: string, now: number): Promise<DeliveredMessage> {
    if (to !== "swarm" && !this.messages.has(to))
      throw new Error(`Cannot message "${to}": no such agent in the swarm.`);
    const entry = await this.commit(
      makeEntry({
        id: this.nextId(from),
        kind: "MESSAGE",
        author: from,
        time: now,
        text,
        to: to === "swarm" ? "swarm" : { agent: to },
      }),
    );
    const delivered = this.messages.history().find((m) => m.id === entry.id);
    if (delivered === undefined) throw new Error(`Message ${entry.id} was stored but not routed.`);
    return delivered;
  }

  /** Messages for an agent at one of its two delivery points (see messages.ts for the rules). */
  deliver(agent: string, point: DeliveryPoint): DeliveredMessage[] {
    return this.messages.take(agent, point);
  }

  /** New entries the agent may see since it last asked (findings as they land, under the visibility rule). */
  newEntriesFor(agent: string): BoardEntry[] {
    return this.feeds.get(agent)?.next(this.board.entries()) ?? [];
  }

  /**
   * Who covers what now: every agent on the board (and any other holder of a live claim) with the claims it
   * holds and the words it claimed them with. Claims are visible to all, whatever the findings' visibility.
   */
  roster(now: number): RosterMember[] {
    const held = new Map<string, RosterMember["claims"][number][]>();
    for (const lease of this.claims.active(now)) {
      const text = this.board.get(lease.claimId)?.text ?? "";
      const claim = { claimId: lease.claimId, scope: describeScope(lease.scope), text };
      held.set(lease.agent, [...(held.get(lease.agent) ?? []), claim]);
    }
    const agents = new Set([...this.members.keys(), ...held.keys()]);
    return [...agents].map((agent) => {
      const role = this.members.get(agent);
      return { agent, ...(role !== undefined ? { role } : {}), claims: held.get(agent) ?? [] };
    });
  }

  /** The live roster as the lines an agent reads. */
  rosterText(now: number): string[] {
    return rosterLines(this.roster(now));
  }

  /** grep_board over what the agent may see. */
  grep(agent: string, query: BoardQuery): BoardEntry[] {
    const viewer = { agent, isSynthesist: this.synthesists.has(agent) };
    return grepBoard(visibleEntries(this.board.entries(), viewer, this.rule), query, this.options.textMatch);
  }

  private async commit(entry: BoardEntry): Promise<BoardEntry> {
    const stored = await this.options.store.append(entry);
    if (stored === "posted" && this.board.apply(entry) === "added" && entry.kind === "MESSAGE")
      this.messages.post(entry);
    this.noteId(entry);
    return entry;
  }

  private noteId(entry: BoardEntry): void {
    const m = /-(\d+)$/.exec(entry.id);
    if (m === null || !entry.id.startsWith(entry.author + "-")) return;
    const n = Number(m[1]);
    if (n > (this.counters.get(entry.author) ?? 0)) this.counters.set(entry.author, n);
  }
}
