// Who sees which board entry.
//   shared:        every entry reaches every agent as it lands.
//   private-pads:  findings (OBSERVED, FACT, FAIL, PATCH_SUMMARY) stay on their author's pad; the synthesist
//                  sees every pad when it fans in, and what the synthesist writes is seen by all.
//                  Claims and releases (the roster of who covers what) stay visible to all.
//                  A sub-agent writes on its parent's pad (so on the pad of the agent that started the family):
//                  its findings reach its parent and its parent's other sub-agents under the parent's rule.
// Messages are seen by their sender and their recipients (everyone, for the swarm channel), in both modes.
import type { BoardEntry, Visibility } from "../protocol/board";

export interface Viewer {
  readonly agent: string;
  /** The synthesist reads every pad. */
  readonly isSynthesist: boolean;
}

export interface VisibilityRule {
  readonly visibility: Visibility;
  /** Agent ids acting as synthesist: their entries are visible to all. */
  readonly synthesists: ReadonlySet<string>;
  /** Whose pad an agent writes on (a sub-agent: its family's first agent); default: its own. */
  readonly padOf?: (agent: string) => string;
}

function samePad(a: string, b: string, rule: VisibilityRule): boolean {
  return rule.padOf !== undefined && rule.padOf(a) === rule.padOf(b);
}

export function isVisibleTo(entry: BoardEntry, viewer: Viewer, rule: VisibilityRule): boolean {
  if (entry.author === viewer.agent) return true;
  switch (entry.kind) {
    case "CLAIM":
    case "RELEASE":
      return true;
    case "MESSAGE":
      return entry.to === "swarm" || (entry.to !== undefined && entry.to.agent === viewer.agent);
    default:
      return (
        rule.visibility === "shared" ||
        viewer.isSynthesist ||
        rule.synthesists.has(entry.author) ||
        samePad(entry.author, viewer.agent, rule)
      );
  }
}

export function visibleEntries(entries: readonly BoardEntry[], viewer: Viewer, rule: VisibilityRule): BoardEntry[] {
  return entries.filter((e) => isVisibleTo(e, viewer, rule));
}

/**
 * A reader's view of new entries: each call returns what became visible to the viewer since the last call.
 * The cursor counts board entries, so entries the viewer may not see are skipped once and never returned.
 */
export class BoardFeed {
  private cursor = 0;

  constructor(
    private readonly viewer: Viewer,
    private readonly rule: VisibilityRule,
  ) {}

  next(entries: readonly BoardEntry[]): BoardEntry[] {
    const fresh = entries.slice(this.cursor);
    this.cursor = entries.length;
    return visibleEntries(fresh, this.viewer, this.rule);
  }
}
