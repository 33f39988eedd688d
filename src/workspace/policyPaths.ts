// The command policy's judgement of the paths a command names, after the shell's expansion (wordPaths.ts):
// a secret is denied whatever the rules say; a protected name in the worktree is denied as a redirect target and
// asked about as an argument; the user's checkout, folders that hold secrets and anything else outside the
// worktree and the toolchain are asked about.
import path from "node:path";
import { automationPathOf } from "./automationPaths";
import { GLOB, segmentRegex } from "./braceGlob";
import type { Decision } from "./commandPolicy";
import { foldName } from "./pathContainment";
import { holdsSecrets, isUnderPath, secretReason } from "./secretPaths";
import type { Word } from "./shellParse";
import { wordPaths } from "./wordPaths";

export interface PolicyScope {
  /** The worktree the command runs in; without it relative paths are judged as if outside everything. */
  readonly cwd?: string;
  /** The real home. */
  readonly home: string;
  /** The user's checkout and the repository's common git dir. */
  readonly checkout?: string;
  readonly gitDir?: string;
  readonly protectedPaths: readonly string[];
}

/** Folders outside the worktree a command may read without asking: the toolchain, devices, a private tmp. */
const READABLE = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/nix", "/dev"];
const READABLE_ALSO = ["/proc", "/sys"];
/** Stands for the worktree when the caller gave none: relative paths land in no real folder. */
const NO_CWD = "/nonexistent-swarmboard-worktree";

type Add = (decision: Decision, reason: string) => void;

/** A segment left with glob characters matched nothing yet; it still counts if it could match the name. */
const sameName = (seg: string, name: string) =>
  foldName(seg) === name || (GLOB.test(seg) && segmentRegex(seg.toLowerCase()).test(name));

function protectedInside(rel: string, protectedPaths: readonly string[]): string | undefined {
  const segs = rel.split("/");
  return protectedPaths.find((p) => {
    const want = p.split("/").filter(Boolean).map(foldName);
    return want.length > 0 && want.every((w, i) => segs[i] !== undefined && sameName(segs[i], w));
  });
}

function judgePath(p: string, write: boolean, scope: PolicyScope, add: Add): void {
  const cwd = scope.cwd ?? NO_CWD;
  const secret = secretReason(p, { home: scope.home, worktree: scope.cwd, gitDir: scope.gitDir });
  if (secret) return add("deny", `names a secret: ${secret}`);
  if (write && /^\/dev\/(null|stdout|stderr)$/.test(p)) return;
  if (isUnderPath(p, cwd)) {
    const hit = protectedInside(path.relative(cwd, p), scope.protectedPaths);
    if (hit !== undefined) add(write ? "deny" : "ask", `${write ? "writes" : "names"} the protected path ${hit}`);
    else if (write && automationPathOf(path.relative(cwd, p)) !== undefined)
      add("ask", `writes the CI or automation file ${path.relative(cwd, p)}, which runs as code once merged`);
    return;
  }
  if (scope.checkout && isUnderPath(p, scope.checkout)) return add("ask", `reaches into the user's checkout (${p})`);
  if (holdsSecrets(p, { home: scope.home, gitDir: scope.gitDir }))
    return add("ask", `reaches a folder that holds secrets (${p})`);
  if (!write && [...READABLE, ...READABLE_ALSO].some((r) => isUnderPath(p, r))) return;
  add("ask", `reaches outside the worktree (${p})`);
}

/** Adds the findings for every path `word` can name; `write` for redirect targets that write. */
export function judgeWord(word: Word, write: boolean, scope: PolicyScope, add: Add): void {
  const found = wordPaths(word, { cwd: scope.cwd ?? NO_CWD, home: scope.home });
  if (found.incomplete) add("ask", found.incomplete);
  for (const p of found.paths) judgePath(p, write, scope, add);
}
