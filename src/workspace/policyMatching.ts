// How the command policy matches rules to a command's words: deny rules by program and flag set ("rm -rf"
// matches `rm -fr x` and `rm -r -f x`), allow and ask rules by literal prefix, protected names by path segment.
import { foldName } from "./pathContainment";

export const basename = (cmd: string) => cmd.slice(cmd.lastIndexOf("/") + 1);

/** Short-flag letters and long flags of argv, so "-rf" matches "-r -f" and "-fr". */
function flagSet(args: readonly string[]): Set<string> {
  const flags = new Set<string>();
  for (const a of args) {
    if (/^-[A-Za-z]+$/.test(a)) for (const ch of a.slice(1)) flags.add(`-${ch}`);
    else flags.add(a);
  }
  return flags;
}

export function matchesDeny(rule: string, argv: readonly string[]): boolean {
  const [name, ...rest] = rule.trim().split(/\s+/);
  if (argv.length === 0 || basename(argv[0]) !== name) return false;
  const have = flagSet(argv.slice(1));
  return [...flagSet(rest)].every((f) => have.has(f));
}

export function matchesPrefix(rule: string, argv: readonly string[]): boolean {
  const words = rule.trim().split(/\s+/);
  return words.length <= argv.length && words.every((w, i) => w === argv[i]);
}

export function mentionsProtected(text: string, protectedNames: readonly string[]): boolean {
  const segs = text.split(/[/=:]/).map(foldName);
  return protectedNames.some((p) => segs.includes(foldName(p)));
}
