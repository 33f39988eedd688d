// The board kinds that are findings (claims, releases and messages are coordination, not findings), with the
// label and codicon every surface shows for them: defined once here, read by the tools, the tree, the
// findings list, the editor marks and the panel.
import { z } from "zod";
import type { BoardEntryKind } from "./board";

export const findingKinds = ["OBSERVED", "FACT", "FAIL", "PATCH_SUMMARY"] as const satisfies readonly BoardEntryKind[];
export const findingKindSchema = z.enum(findingKinds);
export type FindingKind = z.infer<typeof findingKindSchema>;

export interface FindingKindLook {
  /** A few words for people. */
  readonly label: string;
  /** What the kind means, for agents and tooltips. */
  readonly meaning: string;
  /** A codicon name (`$(name)` in labels, `new ThemeIcon(name)` in trees). */
  readonly icon: string;
}

export const findingKindLooks: Readonly<Record<FindingKind, FindingKindLook>> = {
  OBSERVED: { label: "Observed", meaning: "seen once", icon: "eye" },
  FACT: { label: "Fact", meaning: "checked", icon: "lightbulb" },
  FAIL: { label: "Failed attempt", meaning: "tried and failed", icon: "error" },
  PATCH_SUMMARY: { label: "Patch summary", meaning: "what a change did", icon: "git-commit" },
};

export function isFindingKind(kind: string): kind is FindingKind {
  return (findingKinds as readonly string[]).includes(kind);
}
