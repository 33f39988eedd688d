// How far a runtime build is, read from the lines its builder prints: make's "[ 42%] Building CXX object ..."
// and ninja's "[17/230] Building ...". Pure, so the progress notification and the terminal read lines one way.

export interface BuildProgressLine {
  /** 0..100 when the line carries a step count, else undefined. */
  readonly percent?: number;
  /** The line without its counter and the folders before the file it names, short enough for a notification. */
  readonly text: string;
}

const maxText = 100;

export function buildProgressLine(line: string): BuildProgressLine {
  const trimmed = line.trim();
  const make = /^\[\s*(\d{1,3})%\]\s*(.*)$/.exec(trimmed);
  const ninja = /^\[(\d+)\/(\d+)\]\s*(.*)$/.exec(trimmed);
  let percent: number | undefined;
  let rest = trimmed;
  if (make !== null) {
    percent = Math.min(100, Number(make[1]));
    rest = make[2]!;
  } else if (ninja !== null && Number(ninja[2]) > 0) {
    percent = Math.min(100, Math.floor((Number(ninja[1]) * 100) / Number(ninja[2])));
    rest = ninja[3]!;
  }
  // "Building CXX object ggml/src/CMakeFiles/ggml-base.dir/ggml.c.o" -> "Building CXX object ggml.c.o"
  const short = rest.replace(/(\S*\/)+(\S+)/g, "$2");
  const text = short.length > maxText ? `${short.slice(0, maxText - 1)}…` : short;
  return percent === undefined ? { text } : { percent, text };
}
