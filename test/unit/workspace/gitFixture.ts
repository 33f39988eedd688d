// Real git repositories in temp folders for the workspace tests, and a byte-level snapshot of a user's checkout
// (status, index, HEAD, stash list, config, every file) to prove that Swarmboard never touched it.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  lstatSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";

const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: "Test User",
  GIT_AUTHOR_EMAIL: "user@example.invalid",
  GIT_COMMITTER_NAME: "Test User",
  GIT_COMMITTER_EMAIL: "user@example.invalid",
  GIT_CONFIG_NOSYSTEM: "1",
  LC_ALL: "C",
};

/** Runs git as the user would (hooks and all), for setting up fixtures and reading results. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: gitEnv, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `swarmboard-${prefix}-`));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export function write(root: string, rel: string, content: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), content);
}

/** A repository with two commits and no local changes. */
export function cleanRepo(): string {
  const dir = tempDir("repo");
  git(dir, "-c", "init.defaultBranch=main", "init", "-q");
  write(dir, "README.md", "# fixture\n");
  write(dir, "src/app.ts", "export const answer = 42;\n");
  write(dir, ".gitignore", "build/\n*.log\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "first");
  write(dir, "src/lib.ts", "export function add(a: number, b: number) {\n  return a + b;\n}\n");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "second");
  return dir;
}

/** A repository with a stash entry and staged, unstaged, untracked and ignored changes, plus a hook that must never run. */
export function dirtyRepo(): string {
  const dir = cleanRepo();
  write(dir, "src/app.ts", "export const answer = 41;\n");
  git(dir, "stash", "push", "-q", "-m", "user stash");
  write(dir, "src/staged.ts", "export const staged = true;\n");
  git(dir, "add", "src/staged.ts");
  write(dir, "README.md", "# fixture\n\nunstaged edit\n");
  write(dir, "notes/untracked.txt", "untracked\n");
  write(dir, "build/out.js", "ignored build output\n");
  write(dir, "debug.log", "ignored log\n");
  // A hook that would leave a mark if any git command of Swarmboard ran it.
  for (const hook of [
    "pre-commit",
    "post-commit",
    "post-checkout",
    "pre-merge-commit",
    "post-merge",
    "reference-transaction",
  ]) {
    write(dir, `.git/hooks/${hook}`, `#!/bin/sh\necho ${hook} >> "${dir}.hook-ran"\n`);
    execFileSync("chmod", ["+x", path.join(dir, ".git/hooks", hook)]);
  }
  return dir;
}

function hashTree(root: string, rel: string, into: Record<string, string>): void {
  for (const name of readdirSync(path.join(root, rel)).sort()) {
    const r = rel ? `${rel}/${name}` : name;
    if (r === ".git") continue;
    const full = path.join(root, r);
    const st = lstatSync(full);
    if (st.isSymbolicLink()) into[r] = `link:${readlinkSync(full)}`;
    else if (st.isDirectory()) hashTree(root, r, into);
    else into[r] = `${st.mode.toString(8)}:${createHash("sha256").update(readFileSync(full)).digest("hex")}`;
  }
}

export interface CheckoutSnapshot {
  readonly status: string;
  readonly index: string;
  readonly head: string;
  readonly headRef: string;
  readonly stash: string;
  readonly config: string;
  readonly files: Record<string, string>;
}

/** Everything about the user's checkout that Swarmboard promises not to change. */
export function snapshotCheckout(dir: string): CheckoutSnapshot {
  const files: Record<string, string> = {};
  hashTree(dir, "", files);
  const sha = (p: string) =>
    createHash("sha256")
      .update(readFileSync(path.join(dir, p)))
      .digest("hex");
  return {
    // --no-optional-locks: our own reading must not refresh the index we are checking.
    status: git(dir, "--no-optional-locks", "status", "--porcelain=v2", "-uall", "--ignored"),
    index: sha(".git/index"),
    head: git(dir, "rev-parse", "HEAD"),
    headRef: readFileSync(path.join(dir, ".git/HEAD"), "utf8"),
    stash: git(dir, "stash", "list", "--format=%H %gs"),
    config: readFileSync(path.join(dir, ".git/config"), "utf8"),
    files,
  };
}

export function hookRan(dir: string): boolean {
  try {
    lstatSync(`${dir}.hook-ran`);
    return true;
  } catch {
    return false;
  }
}
