// What a sandboxed command can see, as one list of mounts: the toolchain read-only (of /etc only what toolchains
// read), a private home and /tmp, the repository's git dir read-only (its configs, submodules' and worktrees' too,
// replaced by copies without remotes or credentials: sandboxGitConfig.ts), the agent's
// worktree writable with its protected names read-only (absent ones as empty read-only folders, so they cannot be
// created either). Nothing else: not the user's checkout, not the real home, not the swarm's other worktrees.
// A new read-only view (say the user's node_modules) is one more entry in `readOnlyBinds`.
import { lstatSync, readdirSync, readlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolchainDirs } from "./homeToolchains";

export type SandboxMount =
  /** `source` shown read-only at `path` (source defaults to path); `optional` skips a missing source. */
  | { readonly kind: "ro"; readonly path: string; readonly source?: string; readonly optional?: boolean }
  | { readonly kind: "rw"; readonly path: string }
  | { readonly kind: "tmpfs"; readonly path: string }
  /** Makes `path` (a tmpfs mounted earlier) read-only once what lies under it is bound. */
  | { readonly kind: "remount-ro"; readonly path: string }
  | { readonly kind: "symlink"; readonly path: string; readonly target: string };

export interface SandboxOptions {
  /** The real home to hide; the command's private home is an empty tmpfs there (default: the current user's). */
  readonly home?: string;
  /** Git dirs the worktree needs (the repository's common dir): read-only. */
  readonly gitDirs?: readonly string[];
  /** A sanitized copy of the repository's git config, shown instead of `<gitDir>/config`. */
  readonly gitConfig?: string;
  /** Sanitized copies of the git dirs' other configs (submodules', worktrees'), each shown at `path`. */
  readonly gitConfigOverlays?: ReadonlyArray<{ readonly path: string; readonly source: string }>;
  /** Worktree-relative names git must ignore inside the sandbox (the links to the user's dependency folders). */
  readonly gitIgnored?: readonly string[];
  /** The excludes file listing `gitIgnored`, shown read-only at SANDBOX_GIT_EXCLUDES (the config names it). */
  readonly gitExcludes?: string;
  /** Further folders visible read-only at their own path (e.g. installed dependency folders). */
  readonly readOnlyBinds?: readonly string[];
  /** Paths inside the worktree that stay read-only (its `.git` link, `.vscode`, hooks folders). */
  readonly readOnlyInside?: readonly string[];
  /** An empty folder shown read-only at each protected path that does not exist. */
  readonly emptyDir?: string;
  /** The user's checkout: hidden even if it lies under a toolchain folder. */
  readonly userCheckout?: string;
}

/** Where a sandboxed git finds the names it ignores besides the repository's own (in the private /tmp). */
export const SANDBOX_GIT_EXCLUDES = "/tmp/.swarmboard-git-excludes";

/** Where programs and their libraries live on Linux systems; bound read-only where they exist. */
const TOOLCHAIN = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/nix"];

/**
 * The /etc entries toolchains read (users and groups by name, name resolution, TLS certificates, the dynamic
 * loader, time zone, alternatives, MIME and terminal data, language runtimes' own folders); nothing else of /etc:
 * never shadow, gshadow, sudoers, the system git config (credential helpers) or package managers' credentials.
 */
const ETC_NEEDED = new Set([
  ...["passwd", "group", "hosts", "hostname", "resolv.conf", "nsswitch.conf", "host.conf", "gai.conf"],
  ...["services", "protocols", "networks", "ssl", "ca-certificates", "ca-certificates.conf", "pki"],
  ...["crypto-policies", "alternatives", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "timezone"],
  ...["os-release", "lsb-release", "debian_version", "mime.types", "mtab", "shells", "locale.alias", "locale.conf"],
  ...["inputrc", "terminfo", "magic", "magic.mime", "fonts", "perl", "xml", "sgml"],
]);
const ETC_NEEDED_PREFIX = /^(?:java-\d|python3|ruby|php\d)/;

/** The /etc entries of ETC_NEEDED that exist, read-only (a top-level symlink kept as a symlink). */
function etcMounts(): SandboxMount[] {
  let names: string[];
  try {
    names = readdirSync("/etc");
  } catch {
    return [];
  }
  const mounts: SandboxMount[] = [];
  for (const name of names.sort()) {
    if (!ETC_NEEDED.has(name) && !ETC_NEEDED_PREFIX.test(name)) continue;
    const p = `/etc/${name}`;
    const kind = kindOf(p);
    if (kind === "symlink") mounts.push({ kind: "symlink", path: p, target: readlinkSync(p) });
    else if (kind !== "missing") mounts.push({ kind: "ro", path: p, optional: true });
  }
  return mounts;
}

function kindOf(p: string): "dir" | "symlink" | "other" | "missing" {
  try {
    const st = lstatSync(p);
    return st.isSymbolicLink() ? "symlink" : st.isDirectory() ? "dir" : "other";
  } catch {
    return "missing";
  }
}

function isUnder(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}

/** System folders where programs and libraries live, read-only where they exist. */
function systemMounts(): SandboxMount[] {
  const mounts: SandboxMount[] = [];
  for (const dir of TOOLCHAIN) {
    const kind = kindOf(dir);
    // Merged-/usr systems have /bin -> usr/bin: keep the link, the target is bound already.
    if (kind === "symlink") mounts.push({ kind: "symlink", path: dir, target: readlinkSync(dir) });
    else if (kind === "dir") mounts.push({ kind: "ro", path: dir });
  }
  return [...mounts, ...etcMounts()];
}

/**
 * PATH entries and node's own prefix outside the system folders (e.g. /usr/local-like prefixes elsewhere). Those
 * under the real home show only the toolchain they belong to (homeToolchains.ts): the rest of the home stays
 * empty.
 */
function userToolchainMounts(home: string | undefined, checkout: string | undefined): SandboxMount[] {
  const entries = [path.dirname(path.dirname(process.execPath))];
  for (const entry of (process.env.PATH ?? "").split(":")) if (path.isAbsolute(entry)) entries.push(entry);
  const dirs = new Set<string>();
  for (const entry of entries.map((e) => path.normalize(e)))
    for (const dir of toolchainDirs(entry, home)) dirs.add(dir);
  const mounts: SandboxMount[] = [];
  for (const dir of dirs) {
    if (dir === "/" || [...TOOLCHAIN, "/etc"].some((t) => isUnder(dir, t))) continue;
    if ((checkout && isUnder(dir, checkout)) || kindOf(dir) !== "dir") continue;
    mounts.push({ kind: "ro", path: dir, optional: true });
  }
  return mounts;
}

/** The mounts for one sandboxed command in `worktree`, in the order bwrap must apply them. */
export function sandboxMounts(worktree: string, options: SandboxOptions = {}): SandboxMount[] {
  const given = options.home ?? os.homedir();
  const home = given && given !== "/" && path.isAbsolute(given) ? given : undefined;
  const mounts: SandboxMount[] = systemMounts();
  mounts.push({ kind: "tmpfs", path: "/tmp" }, { kind: "tmpfs", path: "/var/tmp" });
  if (options.gitExcludes) mounts.push({ kind: "ro", path: SANDBOX_GIT_EXCLUDES, source: options.gitExcludes });
  if (home) mounts.push({ kind: "tmpfs", path: home });
  if (options.userCheckout) mounts.push({ kind: "tmpfs", path: options.userCheckout });
  mounts.push(...userToolchainMounts(home, options.userCheckout));
  for (const dir of options.gitDirs ?? []) {
    mounts.push({ kind: "ro", path: dir, optional: true });
    if (options.gitConfig) mounts.push({ kind: "ro", path: path.join(dir, "config"), source: options.gitConfig });
  }
  for (const o of options.gitConfigOverlays ?? []) mounts.push({ kind: "ro", path: o.path, source: o.source });
  for (const dir of options.readOnlyBinds ?? []) mounts.push({ kind: "ro", path: dir, optional: true });
  // The checkout's place stays, empty and read-only, with only its git dir in it.
  if (options.userCheckout) mounts.push({ kind: "remount-ro", path: options.userCheckout });
  mounts.push({ kind: "rw", path: worktree });
  for (const p of options.readOnlyInside ?? []) {
    const kind = kindOf(p);
    // A symlink is not bound: bwrap would resolve it on the host and show its target (say ~/.ssh) inside.
    if (kind === "dir" || kind === "other") mounts.push({ kind: "ro", path: p });
    else if (kind === "missing" && options.emptyDir) mounts.push({ kind: "ro", path: p, source: options.emptyDir });
  }
  return mounts;
}

/** bwrap's arguments for a mount list. */
export function mountArgs(mounts: readonly SandboxMount[]): string[] {
  return mounts.flatMap((m): string[] => {
    switch (m.kind) {
      case "ro":
        return [m.optional ? "--ro-bind-try" : "--ro-bind", m.source ?? m.path, m.path];
      case "rw":
        return ["--bind", m.path, m.path];
      case "tmpfs":
        return ["--tmpfs", m.path];
      case "remount-ro":
        return ["--remount-ro", m.path];
      case "symlink":
        return ["--symlink", m.target, m.path];
    }
  });
}
