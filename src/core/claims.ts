// Claims: a claim is a lease on a scope (a task, files, globs). Overlaps are found at claim time and the
// second claim is refused, never granted twice; both agents are told. Leases renew while the holder shows
// progress and end when it finishes, fails or stalls (release) or stops renewing (expiry).
import type { BoardEntry, Scope } from "../protocol/board";
import { describeScope, isEmptyScope, scopesOverlap } from "./scopes";

export interface Lease {
  /** Also the id of the CLAIM entry on the board. */
  readonly claimId: string;
  readonly agent: string;
  readonly scope: Scope;
  readonly grantedAt: number;
  readonly leaseUntil: number;
}

export interface ClaimRequest {
  readonly claimId: string;
  readonly agent: string;
  readonly scope: Scope;
  readonly now: number;
}

export interface ClaimConflict {
  readonly holder: Lease;
  readonly reason: string;
}

export type ClaimDecision =
  | { readonly granted: true; readonly lease: Lease }
  | { readonly granted: false; readonly conflicts: readonly ClaimConflict[]; readonly reason: string };

export interface ClaimTableOptions {
  /** How long a lease lasts without renewal, in ms. */
  readonly leaseMs: number;
}

export class ClaimTable {
  private readonly leases = new Map<string, Lease>();

  constructor(private readonly options: ClaimTableOptions) {
    if (!(options.leaseMs > 0))
      throw new Error(`leaseMs must be a positive number of milliseconds, got ${options.leaseMs}.`);
  }

  /**
   * Grants the lease unless another agent's live lease overlaps it. An agent's own leases never conflict
   * with each other (it may widen its work); a claim id already in use is refused.
   */
  claim(request: ClaimRequest): ClaimDecision {
    if (isEmptyScope(request.scope)) {
      return { granted: false, conflicts: [], reason: "a claim must name a task, paths or globs" };
    }
    if (this.leases.has(request.claimId)) {
      return { granted: false, conflicts: [], reason: `claim id ${request.claimId} is already in use` };
    }
    const conflicts = this.conflictsWith(request.agent, request.scope, request.now);
    if (conflicts.length > 0) {
      const first = conflicts[0];
      return {
        granted: false,
        conflicts,
        reason: `overlaps ${first.holder.agent}'s claim ${first.holder.claimId}: ${first.reason}`,
      };
    }
    const lease: Lease = {
      claimId: request.claimId,
      agent: request.agent,
      scope: request.scope,
      grantedAt: request.now,
      leaseUntil: request.now + this.options.leaseMs,
    };
    this.leases.set(lease.claimId, lease);
    return { granted: true, lease };
  }

  /** Live leases of other agents that overlap the scope. */
  conflictsWith(agent: string, scope: Scope, now: number): ClaimConflict[] {
    const out: ClaimConflict[] = [];
    for (const lease of this.leases.values()) {
      if (lease.agent === agent || lease.leaseUntil <= now) continue;
      const overlap = scopesOverlap(scope, lease.scope);
      if (overlap.overlap) out.push({ holder: lease, reason: overlap.reason });
    }
    return out;
  }

  /** Extends one live lease; undefined when it is unknown or has already run out. */
  renew(claimId: string, now: number): Lease | undefined {
    const lease = this.leases.get(claimId);
    if (lease === undefined || lease.leaseUntil <= now) return undefined;
    const renewed = { ...lease, leaseUntil: now + this.options.leaseMs };
    this.leases.set(claimId, renewed);
    return renewed;
  }

  /** Renews every live lease of an agent (called when the watchdog sees progress). */
  renewAgent(agent: string, now: number): Lease[] {
    return this.leasesOf(agent, now).flatMap((l) => this.renew(l.claimId, now) ?? []);
  }

  release(claimId: string): Lease | undefined {
    const lease = this.leases.get(claimId);
    this.leases.delete(claimId);
    return lease;
  }

  /** Releases everything an agent holds (it finished, failed or stalled). */
  releaseAgent(agent: string): Lease[] {
    const held = [...this.leases.values()].filter((l) => l.agent === agent);
    for (const lease of held) this.leases.delete(lease.claimId);
    return held;
  }

  /** Removes and returns leases that ran out by `now`. */
  expire(now: number): Lease[] {
    const expired = [...this.leases.values()].filter((l) => l.leaseUntil <= now);
    for (const lease of expired) this.leases.delete(lease.claimId);
    return expired;
  }

  /** Live leases at `now`, in grant order. */
  active(now: number): Lease[] {
    return [...this.leases.values()].filter((l) => l.leaseUntil > now);
  }

  leasesOf(agent: string, now: number): Lease[] {
    return this.active(now).filter((l) => l.agent === agent);
  }

  /**
   * Rebuilds the table from board entries: CLAIM entries (with `leaseUntil`) grant, RELEASE entries end.
   * Replaying the same log always gives the same table.
   */
  static fromBoard(entries: readonly BoardEntry[], options: ClaimTableOptions): ClaimTable {
    const table = new ClaimTable(options);
    for (const entry of entries) {
      if (entry.kind === "CLAIM") {
        table.leases.set(entry.id, {
          claimId: entry.id,
          agent: entry.author,
          scope: entry.scope,
          grantedAt: entry.time,
          leaseUntil: entry.leaseUntil ?? entry.time + options.leaseMs,
        });
      } else if (entry.kind === "RELEASE" && entry.releases !== undefined) {
        table.leases.delete(entry.releases);
      }
    }
    return table;
  }
}

/** A direct note for each side of a refused claim, so that both agents know of the overlap. */
export function conflictNotices(request: ClaimRequest, decision: ClaimDecision): Array<{ to: string; text: string }> {
  if (decision.granted) return [];
  if (decision.conflicts.length === 0) return [{ to: request.agent, text: `Claim refused: ${decision.reason}.` }];
  const notices = [
    {
      to: request.agent,
      text:
        `Claim on ${describeScope(request.scope)} refused: ${decision.reason}. ` +
        `Pick another sub-task, claim a narrower scope, or message the holder.`,
    },
  ];
  const holders = new Set(decision.conflicts.map((c) => c.holder.agent));
  for (const holder of holders) {
    notices.push({
      to: holder,
      text: `${request.agent} tried to claim ${describeScope(request.scope)}, which overlaps your claim.`,
    });
  }
  return notices;
}

/** The CLAIM entry to post for a granted lease. */
export function claimEntry(lease: Lease, text: string): BoardEntry {
  return {
    id: lease.claimId,
    kind: "CLAIM",
    author: lease.agent,
    time: lease.grantedAt,
    scope: lease.scope,
    text,
    refs: [],
    leaseUntil: lease.leaseUntil,
  };
}

/** The RELEASE entry that ends a lease (`reason`: finished, failed, stalled, expired...). */
export function releaseEntry(lease: Lease, id: string, time: number, reason: string): BoardEntry {
  return {
    id,
    kind: "RELEASE",
    author: lease.agent,
    time,
    scope: lease.scope,
    text: reason,
    refs: [],
    releases: lease.claimId,
  };
}
