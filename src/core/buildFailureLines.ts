// What a failed runtime build shows of its output: the log keeps every line, the message only those that say what
// went wrong. node-llama-cpp answers a failed build with its command's whole usage text and JS stack frames, so
// the last lines of a real failure (a compiler that does not work, seen in test/runtime/runtimeBuildFailure) were
// 20 lines of option help and `at ChildProcess...` with the compiler's error above them, out of sight. Pure.

/** The first line of node-llama-cpp's usage text and the last one (yargs prints it after a failed command). */
const usageStart = /^node-llama-cpp source download\s*$/;
const usageEnd = /^\s*-v, --version\b/;
const stackFrame = /^\s+at \S/;
const ansi = /\u001b\[[0-9;]*m/g;
const errorWords = /\b(error|errors|fatal|failed|not found|permission denied|cannot)\b|\*\*\*/i;

/** The lines without colour codes, node-llama-cpp's usage text and stack frames. */
export function withoutBuildNoise(lines: readonly string[]): string[] {
  const kept: string[] = [];
  let inUsage = false;
  for (const raw of lines) {
    const line = raw.replace(ansi, "");
    if (usageStart.test(line)) inUsage = true;
    const skip = inUsage || stackFrame.test(line);
    if (inUsage && usageEnd.test(line)) inUsage = false;
    if (!skip) kept.push(line);
  }
  return kept;
}

/** Whether a line names an error (a compiler's, cmake's, make's): the first such line usually holds the cause.
 * Not cmake's check results ("-- Performing Test X - Failed", which a working build prints too) nor the builder's
 * own closing lines ("[swarmboard runtime] FAILED: ...", which only say that it failed). */
export function isBuildErrorLine(line: string): boolean {
  const text = line.replace(ansi, "").trim();
  if (text.startsWith("-- ") || text.startsWith("[swarmboard runtime]") || stackFrame.test(line)) return false;
  return errorWords.test(text);
}
