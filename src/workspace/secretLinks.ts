// A hard link is the same file under another name: a link in the worktree to ~/.aws/credentials passes every path
// check (its name is inside the worktree) and reads the secret. So before a file tool reads or changes a regular
// file with more than one name, its device and inode are compared with the known secret files': the home's
// credential stores (secretPaths.ts), the system's, key and `.env` files at the home's and the user's checkout's
// top level, and the repository's git config and credentials. A match is refused with why and what to do.
//
// A file with other names that are none of these is allowed: git never checks out a hard link, dependency
// managers (pnpm) hard-link public package files by design, finding a file's other names needs a scan of the
// whole file system, and writes never go through a link anyway (replaceFile.ts writes a new file and renames it).
import type { BigIntStats } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { HOME_SECRETS, isUnderPath, SECRET_NAME, SYSTEM_SECRETS } from "./secretPaths";

export interface SecretLinkScope {
  /** The real home whose credential files are protected (default: the user's). */
  readonly home?: string;
  /** The repository's common git dir (its config may hold a token in a remote URL). */
  readonly gitDir?: string;
  /** Checkouts whose top-level key and `.env` files are secrets to an agent (the user's own checkout). */
  readonly checkouts?: readonly string[];
}

/** How many entries the secret folders (~/.ssh, ~/.aws, ...) are walked for in all, and how deep. */
const MAX_ENTRIES = 5000;
const MAX_DEPTH = 4;

/** The known secrets found so far ("device:inode" -> a path) and the entries still to look at. */
interface Found {
  readonly ids: Map<string, string>;
  left: number;
}

function idOf(st: BigIntStats): string {
  return `${st.dev}:${st.ino}`;
}

async function statOrNull(p: string): Promise<BigIntStats | null> {
  return lstat(p, { bigint: true }).catch(() => null);
}

/** Adds `p` (a file, or every regular file under a folder, bounded) to the found ids. */
async function addSecret(found: Found, p: string, depth = 0): Promise<void> {
  if (found.left <= 0) return;
  found.left--;
  const st = await statOrNull(p);
  if (st === null) return;
  if (st.isFile()) {
    found.ids.set(idOf(st), p);
    return;
  }
  if (!st.isDirectory() || depth >= MAX_DEPTH) return;
  const names = await readdir(p).catch(() => [] as string[]);
  for (const name of names) await addSecret(found, path.join(p, name), depth + 1);
}

/** Top-level files of `dir` whose names say they hold keys or credentials (`.env`, `id_rsa`, `*.pem`, ...). */
async function addNamedSecrets(found: Found, dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) if (SECRET_NAME.test(name)) await addSecret(found, path.join(dir, name), MAX_DEPTH);
}

/** The known secret files, keyed by "device:inode", each with one of its paths. */
export async function secretFileIds(scope: SecretLinkScope): Promise<Map<string, string>> {
  const found: Found = { ids: new Map(), left: MAX_ENTRIES };
  const home = scope.home ?? os.homedir();
  if (home !== "" && home !== "/") {
    for (const s of HOME_SECRETS) await addSecret(found, path.join(home, s));
    await addNamedSecrets(found, home);
  }
  if (scope.gitDir !== undefined) {
    await addSecret(found, path.join(scope.gitDir, "config"), MAX_DEPTH);
    for (const name of await readdir(scope.gitDir).catch(() => [] as string[]))
      if (/credential/i.test(name)) await addSecret(found, path.join(scope.gitDir, name));
  }
  for (const checkout of scope.checkouts ?? []) await addNamedSecrets(found, checkout);
  // Last: /root can be large when it is not the home; the budget keeps the walk bounded.
  for (const s of SYSTEM_SECRETS) if (!isUnderPath(home, s)) await addSecret(found, s);
  return found.ids;
}

/**
 * Why the regular file at `real` (shown to the agent as `shown`) must not be used: it is another name of a known
 * secret file. Undefined for a file with one name, a missing file, or a link to no known secret. `known`: the
 * secret ids already read (secretFileIds), for a caller that checks many files.
 */
export async function secretLinkReason(
  real: string,
  shown: string,
  scope: SecretLinkScope,
  known?: ReadonlyMap<string, string>,
): Promise<string | undefined> {
  const st = await statOrNull(real);
  if (st === null || !st.isFile() || st.nlink < 2n) return undefined;
  const secret = (known ?? (await secretFileIds(scope))).get(idOf(st));
  if (secret === undefined) return undefined;
  return (
    `${JSON.stringify(shown)} is a hard link to ${secret} (the same file: device ${st.dev}, inode ${st.ino}), ` +
    "which holds the user's credentials: the file tools do not read or change it under another name. " +
    "Leave it alone and do not commit it; if your task needs a credential, ask the person (post a question)."
  );
}
