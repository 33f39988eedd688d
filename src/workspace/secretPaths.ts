// Where secrets live, for the command policy: a command that names one of these (after the shell's expansion)
// is denied, not asked about. The user's home credential stores, SSH and cloud keys and `.env` files anywhere
// outside the agent's worktree, the main repository's git config and credentials (a token in a remote URL),
// other processes' environments and roots under /proc, and the system's password and host key files.
import path from "node:path";

export interface SecretScope {
  /** The real home (not the command's private one). */
  readonly home: string;
  /** The agent's worktree: files the agent's own branch holds are not the user's secrets. */
  readonly worktree?: string;
  /** The repository's common git dir. */
  readonly gitDir?: string;
}

/** Home-relative credential stores (files or folders). */
export const HOME_SECRETS = [
  ".ssh",
  ".gnupg",
  ".aws",
  ".azure",
  ".kube",
  ".docker/config.json",
  ".config/gcloud",
  ".config/gh",
  ".config/hub",
  ".config/git/credentials",
  ".git-credentials",
  ".netrc",
  ".npmrc",
  ".yarnrc",
  ".pypirc",
  ".pgpass",
  ".my.cnf",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".gradle/gradle.properties",
  ".m2/settings.xml",
  ".terraform.d/credentials.tfrc.json",
  ".password-store",
  ".local/share/keyrings",
  ".vault-token",
  ".bash_history",
  ".zsh_history",
];
export const SYSTEM_SECRETS = ["/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/ssh", "/root"];
/** File names that hold keys or credentials wherever they are (outside the worktree). */
export const SECRET_NAME =
  /^(\.env(\..*)?|id_(rsa|dsa|ecdsa|ed25519)(_sk)?|.*\.(pem|key|p12|pfx|jks|keystore|kdbx|ppk)|\.netrc|\.git-credentials|credentials(\.json|\.toml)?|\.pgpass|\.npmrc|\.pypirc)$/i;
/** /proc entries that show another view of a process: its environment, memory, root or open files. */
const PROC_SECRET = /^\/proc\/[^/]+\/(task\/[^/]+\/)?(environ|mem|root|cwd|fd|map_files|fdinfo)(\/|$)/;

export function isUnderPath(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}

/** Why `absolute` is a secret, or undefined. Paths are compared as given and case-folded for the home's names. */
export function secretReason(absolute: string, scope: SecretScope): string | undefined {
  const p = path.resolve(absolute);
  if (PROC_SECRET.test(p)) return `${p} shows a process's environment, memory or files`;
  if (p === "/proc/self" || p === "/proc/thread-self") return undefined;
  for (const s of SYSTEM_SECRETS)
    if (isUnderPath(p, s) && !isUnderPath(scope.home, s)) return `${p} is a system secret`;
  if (scope.home && scope.home !== "/") {
    const rel = path.relative(scope.home, p).toLowerCase();
    if (!rel.startsWith("..") && !path.isAbsolute(rel))
      for (const s of HOME_SECRETS) if (isUnderPath(rel, s)) return `${p} is a credential store in the home folder`;
  }
  if (scope.gitDir && isUnderPath(p, scope.gitDir)) {
    const rel = path.relative(scope.gitDir, p);
    if (rel === "config" || /credential/i.test(rel)) return `${p} is the repository's git config or credentials`;
  }
  const inWorktree = scope.worktree !== undefined && isUnderPath(p, scope.worktree);
  if (inWorktree) return undefined;
  if (SECRET_NAME.test(path.basename(p))) return `${p} holds keys or credentials`;
  // Any repository's config (remote URLs carry tokens), even when the policy was not told which repository.
  if (/^\.git$/i.test(path.basename(path.dirname(p))) && /^(config|credentials.*)$/i.test(path.basename(p)))
    return `${p} is a git config or credentials file`;
  return undefined;
}

/** True when `dir` is or holds a secret area (the home, /proc, the git dir), so reading it whole would read those. */
export function holdsSecrets(dir: string, scope: SecretScope): boolean {
  const roots = ["/proc", ...SYSTEM_SECRETS, scope.home, scope.gitDir ?? ""].filter((r) => r !== "" && r !== "/");
  const p = path.resolve(dir);
  return roots.some((r) => isUnderPath(r, p));
}
