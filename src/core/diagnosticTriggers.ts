// The editor's diagnostics as triggers, in code: for one file, the errors and warnings that appeared or changed
// since the last look become triggers (one that stays the same is not news; one that comes back after it was
// gone is news again). Each trigger's id counts how often its fingerprint appeared in this session, so a replay
// of the same session gives the same ids. The rules (src/core/triggerFastPath.ts) decide what is noise.
import type { TriggerInput, TriggerSeverity } from "../protocol/triggers";
import { stableHash } from "./taskSources";

export interface EditorDiagnostic {
  /** 1-based. */
  readonly line: number;
  readonly severity: "error" | "warning" | "information" | "hint";
  readonly message: string;
  readonly source?: string;
  readonly code?: string | number;
}

const severities: Partial<Record<EditorDiagnostic["severity"], TriggerSeverity>> = {
  error: "error",
  warning: "warning",
};

export function diagnosticFingerprint(path: string, d: Pick<EditorDiagnostic, "message" | "source" | "code">): string {
  return `diagnostic|${path}|${d.source ?? ""}|${d.code ?? ""}|${d.message.replace(/\s+/g, " ").trim()}`.slice(
    0,
    1_000,
  );
}

/** The id of the `occurrence`th appearance of a fingerprint. */
export function diagnosticTriggerId(fingerprint: string, occurrence: number): string {
  return `diag-${stableHash(fingerprint)}-${occurrence}`;
}

export class DiagnosticChanges {
  /** Fingerprints present at the last look, per file. */
  private readonly present = new Map<string, Set<string>>();
  private readonly occurrences = new Map<string, number>();

  /** The triggers for a file's diagnostics now (path relative to the repository). */
  look(path: string, diagnostics: readonly EditorDiagnostic[], time: number): TriggerInput[] {
    const before = this.present.get(path) ?? new Set<string>();
    const now = new Set<string>();
    const out: TriggerInput[] = [];
    for (const d of diagnostics) {
      const severity = severities[d.severity];
      if (severity === undefined) continue;
      const fingerprint = diagnosticFingerprint(path, d);
      if (now.has(fingerprint)) continue;
      now.add(fingerprint);
      if (before.has(fingerprint)) continue;
      const occurrence = (this.occurrences.get(fingerprint) ?? 0) + 1;
      this.occurrences.set(fingerprint, occurrence);
      const what = [d.source, d.code].filter((x) => x !== undefined && x !== "").join(" ");
      out.push({
        id: diagnosticTriggerId(fingerprint, occurrence),
        source: "diagnostic",
        fingerprint,
        time,
        path,
        line: d.line,
        severity,
        text: `${what ? `${what}: ` : ""}${d.message}`.slice(0, 8_000),
      });
    }
    if (now.size === 0) this.present.delete(path);
    else this.present.set(path, now);
    return out;
  }
}
