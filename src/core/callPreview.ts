// What a lane shows of a call while it is written: the tool, the argument a person recognises it by (a path, a
// command, a query, a URL) and how much has been written, e.g. `write_file src/calc.js · 1.2 KB…`. The arguments
// are incomplete JSON at that point, so the named argument is read with a pattern, never parsed.

/** The arguments a call is recognised by, in the order they are looked for. */
const namingArgs = ["path", "command", "query", "url", "question", "scope", "text", "summary"] as const;

/** Longest naming value shown; the lane is one line. */
const valueChars = 80;

function sizeText(chars: number): string {
  if (chars < 1000) return `${chars} B`;
  if (chars < 1_000_000) return `${(chars / 1000).toFixed(1)} KB`;
  return `${(chars / 1_000_000).toFixed(1)} MB`;
}

/** The first naming argument's value written so far (closed or not), unescaped enough to read. */
function namingValue(argsSoFar: string): string | undefined {
  for (const key of namingArgs) {
    const match = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)`).exec(argsSoFar);
    if (match === null) continue;
    const value = match[1]!.replace(/\\n/g, " ").replace(/\\(.)/g, "$1").trim();
    if (value === "") continue;
    return value.length > valueChars ? `${value.slice(0, valueChars - 1)}…` : value;
  }
  return undefined;
}

export function callPreview(tool: string, argsSoFar: string): string {
  const value = namingValue(argsSoFar);
  return `${tool}${value !== undefined ? ` ${value}` : ""} · ${sizeText(argsSoFar.length)}…`;
}
