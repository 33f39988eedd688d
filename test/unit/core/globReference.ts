// An independent reference matcher for the glob subset the property tests generate (whole-segment `{x,y}`,
// `[..]`, `*`, `?`, `**`): the ground truth that src/core/globs.ts is checked against.
function segmentRegex(segment: string): RegExp {
  const body = segment
    .replace(/[.+^$()|\\]/g, "\\$&")
    .replace(/\*/g, "[^/]*")
    .replace(/\?/g, "[^/]");
  return new RegExp(`^${body}$`);
}

function expandSegment(segment: string): string[] {
  const m = /^\{(.*)\}$/.exec(segment);
  return m === null ? [segment] : m[1].split(",");
}

function matchSegments(glob: readonly string[], path: readonly string[]): boolean {
  if (glob.length === 0) return path.length === 0;
  if (glob[0] === "**")
    return matchSegments(glob.slice(1), path) || (path.length > 0 && matchSegments(glob, path.slice(1)));
  return (
    path.length > 0 &&
    expandSegment(glob[0]).some((alt) => segmentRegex(alt).test(path[0])) &&
    matchSegments(glob.slice(1), path.slice(1))
  );
}

export function referenceMatches(glob: string, path: string): boolean {
  return matchSegments(glob.split("/"), path.split("/"));
}
