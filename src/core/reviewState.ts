// Review between agents, as pure state: who approved which agent's branch at which commit, who asked for
// changes, what each reviewer last saw, and the events an agent waits for (a review asked of it, a review of
// its branch). An approval is pinned to a commit hash: it counts only while the branch is still at that hash,
// so a branch that moves after its approval needs a new one. Nobody approves their own branch (nor a branch of
// their own family: a sub-agent writes for its parent). Git is read elsewhere (src/workspace/peerBranch.ts);
// this only decides, and says in words what happened and what to do.

export interface Approval {
  readonly reviewer: string;
  readonly sha: string;
  readonly time: number;
}

export interface ChangeRequest {
  readonly reviewer: string;
  readonly sha: string;
  readonly comments: string;
  readonly time: number;
}

/** Something an agent may be waiting for. */
export interface ReviewEvent {
  /** Who it is for: the reviewer asked, or the author whose branch was reviewed or merged. */
  readonly to: string;
  readonly kind: "review-requested" | "approved" | "changes-requested" | "withdrawn" | "merged";
  /** The branch's author. */
  readonly author: string;
  readonly from: string;
  readonly sha: string;
  readonly text: string;
}

/** One branch's review, as the board and the tools show it. */
export interface BranchReviewState {
  readonly author: string;
  readonly state: "unreviewed" | "changes-requested" | "approved" | "needs-approvals" | "moved" | "merged";
  readonly approvalsAtHead: readonly string[];
  readonly needed: number;
  /** One line for the board and the panel. */
  readonly line: string;
}

export type ReviewDecision =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly why: string };

const short = (sha: string) => sha.slice(0, 10);

interface BranchRecord {
  approvals: Approval[];
  changes?: ChangeRequest;
  merged?: string;
}

export class ReviewLedger {
  private readonly branches = new Map<string, BranchRecord>();
  /** reviewer -> author -> the head it last read with review_branch. */
  private readonly seen = new Map<string, Map<string, string>>();
  private readonly events: ReviewEvent[] = [];
  private readonly readUpTo = new Map<string, number>();
  private readonly listeners = new Set<() => void>();

  /** `familyOf` names the agent whose pad an agent writes on (a sub-agent's parent), so a family is one author. */
  constructor(private readonly familyOf: (agent: string) => string = (a) => a) {}

  private record(author: string): BranchRecord {
    let r = this.branches.get(author);
    if (r === undefined) {
      r = { approvals: [] };
      this.branches.set(author, r);
    }
    return r;
  }

  private isOwn(reviewer: string, author: string): boolean {
    return reviewer === author || this.familyOf(reviewer) === this.familyOf(author);
  }

  private emit(event: ReviewEvent): void {
    this.events.push(event);
    for (const l of [...this.listeners]) l();
  }

  /**
   * The author asks `reviewer` to review its branch at `sha`. Reviewers are idle agents: `busyWith` names the claim
   * the reviewer holds, if any (an agent at work on its own task is not asked to stop for a review).
   */
  requestReview(author: string, reviewer: string, sha: string, note: string, busyWith?: string): ReviewDecision {
    if (this.isOwn(reviewer, author))
      return { ok: false, why: `${reviewer} cannot review its own branch: ask another agent (one that is idle).` };
    if (busyWith !== undefined)
      return {
        ok: false,
        why: `${reviewer} is busy (it holds ${busyWith}); ask an idle agent, one that holds no claim (see roster), or wait and ask again.`,
      };
    const text = `${author} asks you to review its branch at ${short(sha)}${note ? `: ${note}` : ""}`;
    this.emit({ to: reviewer, kind: "review-requested", author, from: author, sha, text });
    return { ok: true, text };
  }

  /** The reviewer read the branch at `sha` (review_branch): what an approval without a hash approves. */
  noteSeen(reviewer: string, author: string, sha: string): void {
    let mine = this.seen.get(reviewer);
    if (mine === undefined) {
      mine = new Map();
      this.seen.set(reviewer, mine);
    }
    mine.set(author, sha);
  }

  lastSeen(reviewer: string, author: string): string | undefined {
    return this.seen.get(reviewer)?.get(author);
  }

  /**
   * Approves `author`'s branch at `sha` (undefined: the commit the reviewer last read), which must be what the
   * reviewer read and the branch's head now.
   */
  approve(reviewer: string, author: string, sha: string | undefined, head: string, time: number): ReviewDecision {
    if (this.isOwn(reviewer, author))
      return {
        ok: false,
        why: `an agent cannot approve its own branch (${reviewer} is ${author === reviewer ? "its author" : `of ${author}'s family`}); ask another agent to review it (request_review).`,
      };
    const seen = this.lastSeen(reviewer, author);
    if (seen === undefined || (sha !== undefined && seen !== sha))
      return {
        ok: false,
        why: `you have not read ${author}'s branch${sha === undefined ? "" : ` at ${short(sha)}`}: call review_branch ${author} first, then approve what you read.`,
      };
    if (seen !== head)
      return {
        ok: false,
        why: `${author}'s branch is at ${short(head)} now, not ${short(seen)}: read the new commits (review_branch ${author}), then approve what you read.`,
      };
    const approved = seen;
    const r = this.record(author);
    r.approvals = [...r.approvals.filter((a) => a.reviewer !== reviewer), { reviewer, sha: approved, time }];
    if (r.changes?.reviewer === reviewer) delete r.changes;
    const text = `${reviewer} approved ${author}'s branch at ${short(approved)}`;
    this.emit({ to: author, kind: "approved", author, from: reviewer, sha: approved, text });
    return { ok: true, text };
  }

  /** Asks for changes: the reviewer's approval of this branch (if any) ends. */
  requestChanges(reviewer: string, author: string, sha: string, comments: string, time: number): ReviewDecision {
    if (this.isOwn(reviewer, author))
      return { ok: false, why: `${reviewer} cannot review its own branch: change it yourself.` };
    const r = this.record(author);
    r.approvals = r.approvals.filter((a) => a.reviewer !== reviewer);
    r.changes = { reviewer, sha, comments, time };
    const text = `${reviewer} asks for changes on ${author}'s branch at ${short(sha)}: ${comments}`;
    this.emit({ to: author, kind: "changes-requested", author, from: reviewer, sha, text });
    return { ok: true, text };
  }

  withdraw(reviewer: string, author: string): ReviewDecision {
    const r = this.branches.get(author);
    const had = r?.approvals.find((a) => a.reviewer === reviewer);
    if (r === undefined || had === undefined)
      return { ok: false, why: `${reviewer} has no approval of ${author}'s branch to withdraw.` };
    r.approvals = r.approvals.filter((a) => a.reviewer !== reviewer);
    const text = `${reviewer} withdrew its approval of ${author}'s branch at ${short(had.sha)}`;
    this.emit({ to: author, kind: "withdrawn", author, from: reviewer, sha: had.sha, text });
    return { ok: true, text };
  }

  /** The branch's review with its head now and the approvals the recipe needs. */
  state(author: string, head: string | null, needed: number): BranchReviewState {
    const r = this.branches.get(author) ?? { approvals: [] };
    const atHead = head === null ? [] : r.approvals.filter((a) => a.sha === head).map((a) => a.reviewer);
    const stale = r.approvals.filter((a) => a.sha !== head);
    const at = head === null ? "no branch" : short(head);
    const base = { author, approvalsAtHead: atHead, needed };
    if (head !== null && r.merged === head) return { ...base, state: "merged", line: `${author} ${at}: merged` };
    if (atHead.length >= needed && needed > 0)
      return { ...base, state: "approved", line: `${author} ${at}: approved by ${atHead.join(", ")}` };
    if (r.changes !== undefined && (r.changes.sha === head || stale.length === 0) && atHead.length === 0)
      return {
        ...base,
        state: "changes-requested",
        line: `${author} ${at}: changes requested by ${r.changes.reviewer} at ${short(r.changes.sha)}`,
      };
    if (stale.length > 0 && atHead.length === 0)
      return {
        ...base,
        state: "moved",
        line: `${author} ${at}: moved past the approved ${stale.map((a) => `${short(a.sha)} (${a.reviewer})`).join(", ")}`,
      };
    if (atHead.length > 0)
      return { ...base, state: "needs-approvals", line: `${author} ${at}: ${atHead.length} of ${needed} approvals` };
    return { ...base, state: "unreviewed", line: `${author} ${at}: not reviewed` };
  }

  /** Whether the integrator may merge `author`'s branch at `head`, and if not, why and what to do. */
  mergeCheck(author: string, head: string | null, needed: number): ReviewDecision {
    if (head === null) return { ok: false, why: `${author} has no branch (it never committed).` };
    const s = this.state(author, head, needed);
    if (s.state === "approved") return { ok: true, text: s.line };
    if (s.state === "merged") return { ok: false, why: `${author}'s branch at ${short(head)} is merged already.` };
    if (s.state === "moved")
      return {
        ok: false,
        why: `${author}'s branch moved past the approved commit (${s.line}); its new commits need approval: ask a reviewer to review_branch ${author} again and approve ${short(head)}.`,
      };
    return {
      ok: false,
      why: `${author}'s branch at ${short(head)} has ${s.approvalsAtHead.length} of the ${needed} approvals it needs (${s.line}); wait for its reviewers, or ask ${author} to request_review.`,
    };
  }

  markMerged(author: string, sha: string, by: string): void {
    this.record(author).merged = sha;
    this.emit({
      to: author,
      kind: "merged",
      author,
      from: by,
      sha,
      text: `${by} merged ${author}'s branch at ${short(sha)}`,
    });
  }

  /** The events for `agent` it has not read yet (read now). */
  take(agent: string): ReviewEvent[] {
    const from = this.readUpTo.get(agent) ?? 0;
    this.readUpTo.set(agent, this.events.length);
    return this.events.slice(from).filter((e) => e.to === agent);
  }

  /** Whether `agent` has events it has not read. */
  hasUnread(agent: string): boolean {
    const from = this.readUpTo.get(agent) ?? 0;
    return this.events.slice(from).some((e) => e.to === agent);
  }

  /** Calls `listener` at every new event; returns the way to stop. */
  onEvent(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
