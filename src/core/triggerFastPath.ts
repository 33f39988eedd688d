// The fast path in code: per-source rules (allow/deny globs, severity, threads only, rate limits) and dedupe by
// fingerprint drop noise with no model call; a follow-up on an open thread goes to the thread's owner (or waits
// for it, parked, while the router has not placed the thread); only the rest reaches the router. Pure: times are
// the triggers' own, so a recorded stream replays to the same decisions.
import type {
  FastPathRoute,
  SourceRules,
  Trigger,
  TriggerCounts,
  TriggerRules,
  TriggerSeverity,
} from "../protocol/triggers";
import { globMatchesPath } from "./globs";
import type { TriggerThreads } from "./triggerThreads";

/** Build output, dependencies and the repository's own folder: never work for the swarm. */
export const noisePaths = [
  "node_modules/**",
  "**/node_modules/**",
  "dist/**",
  "out/**",
  "build/**",
  ".git/**",
  "**/*.min.js",
];

const minute = 60_000;

/** The rules a standing swarm uses unless it is given its own (every number here is a rule a file can change). */
export const defaultTriggerRules: TriggerRules = {
  duplicateWindowMs: 10 * minute,
  saveDebounceMs: 2_000,
  holdMs: 5 * minute,
  sources: {
    diagnostic: { deny: noisePaths, minSeverity: "error", perMinute: 30 },
    "test-failure": { deny: noisePaths, perMinute: 30 },
    "todo-commit": { deny: noisePaths, perMinute: 30 },
    // A commit of the person's is news only for the agent whose thread it touches.
    "user-commit": { deny: noisePaths, threadsOnly: true },
    message: { perMinute: 30 },
  },
};

const severityRank: Record<TriggerSeverity, number> = { info: 0, warning: 1, error: 2 };

/** The fingerprint of a trigger that brings none: the same source, place, test and text are the same event. */
export function defaultFingerprint(t: Pick<Trigger, "source" | "path" | "test" | "text">): string {
  return [t.source, t.path ?? "", t.test ?? "", t.text.replace(/\s+/g, " ").trim()].join("|").slice(0, 1_000);
}

function dropped(rule: string, reason: string): FastPathRoute {
  return { route: "dropped", rule, reason };
}

/** The rule of `rules` that makes this trigger noise, if any. */
function ruleDrop(rules: SourceRules | undefined, t: Trigger): FastPathRoute | undefined {
  if (rules === undefined) return undefined;
  const at = t.path;
  const deny = at === undefined ? undefined : rules.deny?.find((g) => globMatchesPath(g, at));
  if (deny !== undefined) return dropped("deny", `${at} matches the ${t.source} deny glob ${deny}`);
  if (rules.allow !== undefined && (at === undefined || !rules.allow.some((g) => globMatchesPath(g, at))))
    return dropped("allow", `${at ?? "(no path)"} matches none of the ${t.source} allow globs`);
  const severity = t.severity ?? "error";
  if (rules.minSeverity !== undefined && severityRank[severity] < severityRank[rules.minSeverity])
    return dropped("severity", `${severity} is below the ${t.source} minimum severity ${rules.minSeverity}`);
  return undefined;
}

export class TriggerFastPath {
  readonly counts: TriggerCounts = { dropped: 0, direct: 0, router: 0 };
  /** Last time (trigger time) each fingerprint was taken. */
  private readonly seen = new Map<string, number>();
  /** Trigger times of what each source sent to the router, for its rate limit. */
  private readonly sent = new Map<string, number[]>();

  constructor(
    private readonly rules: TriggerRules,
    readonly threads: TriggerThreads,
  ) {}

  /** Decides where a new trigger goes and records it (a router-bound trigger opens a pending thread). */
  decide(t: Trigger): FastPathRoute {
    const route = this.route(t);
    this.apply(t, route);
    return route;
  }

  /** Applies a decision made before (read back from the log after a restart) without judging it again. */
  apply(t: Trigger, route: FastPathRoute): void {
    this.counts[route.route === "parked" ? "direct" : route.route]++;
    if (route.route === "dropped") return;
    this.seen.set(t.fingerprint, t.time);
    if (route.route === "router") {
      this.threads.openPending(t);
      const times = this.sent.get(t.source) ?? [];
      times.push(t.time);
      this.sent.set(t.source, times);
    }
  }

  private route(t: Trigger): FastPathRoute {
    const rules = this.rules.sources[t.source];
    const byRule = ruleDrop(rules, t);
    if (byRule !== undefined) return byRule;
    const last = this.seen.get(t.fingerprint);
    if (last !== undefined && t.time - last <= this.rules.duplicateWindowMs)
      return dropped(
        "duplicate",
        `the same event (fingerprint) was taken ${Math.round((t.time - last) / 1000)} s before`,
      );
    const thread = this.threads.match(t);
    if (thread?.owner !== undefined) return { route: "direct", agentId: thread.owner, thread: thread.id };
    if (thread !== undefined) return { route: "parked", thread: thread.id };
    if (rules?.threadsOnly === true)
      return dropped("threads-only", `no open thread covers this ${t.source} (its rules take follow-ups only)`);
    const perMinute = rules?.perMinute;
    if (perMinute !== undefined) {
      const recent = (this.sent.get(t.source) ?? []).filter((time) => t.time - time < minute);
      this.sent.set(t.source, recent);
      if (recent.length >= perMinute)
        return dropped(
          "rate-limit",
          `more than ${perMinute} ${t.source} triggers a minute went to the router; raise sources.${t.source}.perMinute to take more`,
        );
    }
    return { route: "router" };
  }
}
