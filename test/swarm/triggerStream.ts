// A recorded trigger stream for the standing swarm's replay test: per real task one trigger of work, two exact
// duplicates, three follow-ups on its thread (a diagnostic on its file, the person's commit touching it, a third on
// its file or test) and ten pieces of noise (build output and dependencies, warnings, commits nobody owns).
import type { TriggerInput } from "../../src/protocol/triggers";

export interface RecordedTrigger extends TriggerInput {
  readonly id: string;
  /** What the test expects of it. */
  readonly kind: "real" | "duplicate" | "follow-up" | "noise";
  /** The real trigger whose thread it belongs to (follow-ups and duplicates). */
  readonly of?: string;
}

const base = Date.UTC(2026, 11, 1, 9, 0, 0);

function realTrigger(i: number, time: number): RecordedTrigger {
  const id = `real-${i}`;
  const path = `src/task${i}.js`;
  if (i % 3 === 0)
    return {
      id,
      kind: "real",
      source: "test-failure",
      path,
      test: `task ${i} works`,
      text: `task ${i}: expected 1, got 2`,
      time,
    };
  if (i % 3 === 1)
    return {
      id,
      kind: "real",
      source: "diagnostic",
      path,
      line: 3,
      severity: "error",
      text: `TS2322 in task ${i}`,
      time,
    };
  return { id, kind: "real", source: "todo-commit", path, line: 1, text: `TODO: finish task ${i}`, time };
}

/** The triggers of task `i` (1-based), in the order they arrive. */
function taskSection(i: number): RecordedTrigger[] {
  const t = base + i * 120_000;
  const real = realTrigger(i, t);
  const path = real.path!;
  const dup = (n: number, time: number): RecordedTrigger => ({
    ...real,
    id: `dup-${i}-${n}`,
    kind: "duplicate",
    of: real.id,
    time,
  });
  const follow = (n: number, time: number, more: Partial<TriggerInput>): RecordedTrigger => ({
    id: `follow-${i}-${n}`,
    kind: "follow-up",
    of: real.id,
    source: "diagnostic",
    severity: "error",
    path,
    text: `follow-up ${n} on task ${i}`,
    time,
    ...more,
  });
  const noise = (n: number, time: number): RecordedTrigger => {
    const id = `noise-${i}-${n}`;
    if (n < 3)
      return { id, kind: "noise", source: "diagnostic", path: `dist/bundle${i}-${n}.js`, text: `built ${n}`, time };
    if (n < 6)
      return {
        id,
        kind: "noise",
        source: "diagnostic",
        severity: "warning",
        path: `src/other${i}-${n}.ts`,
        text: `unused ${n}`,
        time,
      };
    if (n < 8)
      return { id, kind: "noise", source: "user-commit", path: `docs/note${i}-${n}.md`, text: `edited ${n}`, time };
    return { id, kind: "noise", source: "diagnostic", path: `node_modules/lib/x${i}-${n}.js`, text: `dep ${n}`, time };
  };
  const third = real.test !== undefined ? { source: "test-failure" as const, test: real.test, path: undefined } : {};
  return [
    real,
    noise(0, t + 100),
    dup(1, t + 500),
    follow(1, t + 1_000, { line: 7 }),
    noise(1, t + 1_100),
    noise(3, t + 1_200),
    follow(2, t + 2_000, { source: "user-commit", severity: undefined, text: `the person's commit changed ${path}` }),
    noise(4, t + 2_100),
    noise(6, t + 2_200),
    dup(2, t + 3_000),
    noise(8, t + 3_100),
    follow(3, t + 4_000, { text: `still failing: task ${i}`, ...third }),
    noise(2, t + 4_100),
    noise(5, t + 4_200),
    noise(7, t + 4_300),
    noise(9, t + 4_400),
  ];
}

/** Tasks 1..n, each section in order. */
export function recordedStream(tasks: number): RecordedTrigger[] {
  return Array.from({ length: tasks }, (_, i) => taskSection(i + 1)).flat();
}

/** The stream as its file holds it (the test's expectations left out). */
export function streamFileText(stream: readonly RecordedTrigger[]): string {
  return stream.map(({ kind: _kind, of: _of, ...t }) => JSON.stringify(t)).join("\n") + "\n";
}
