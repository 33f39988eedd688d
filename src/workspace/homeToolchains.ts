// Toolchains installed under the home (nvm, volta, pyenv, asdf, rustup/cargo, bun, deno, `~/.local/bin`) are seen
// by sandboxed commands read-only, and nothing else of the home: for a PATH entry under the home, the folders its
// programs need (a version manager's own folder, where its shims and versions live; an nvm version's prefix, so
// `npm` finds its `lib/`), never the home itself, never a folder that holds credentials (`~/.cargo` keeps
// `credentials.toml`: only its `bin` and `~/.rustup` are shown; `~/.local`: only `bin` and `lib`).
import path from "node:path";

/** Folders under the home that are never shown, even when on PATH. */
const NEVER = new Set([".ssh", ".aws", ".gnupg", ".config", ".docker", ".kube", ".azure", ".password-store"]);

/** A version manager's folder: every PATH entry inside it shows the whole folder (shims need the versions). */
const MANAGERS = [".volta", ".pyenv", ".asdf", ".bun", ".deno", ".rbenv", ".nodenv", ".goenv", ".sdkman"];

/** A path without `..`, doubled or trailing slashes, as PATH entries and HOME are compared. */
function normalized(p: string): string {
  return path.normalize(p).replace(/(.)\/+$/, "$1");
}

function isUnder(p: string, dir: string): boolean {
  return p === dir || p.startsWith(`${dir}/`);
}

/** What to bind read-only for one absolute PATH entry (or node's own prefix) under `home`; [] for none. */
export function homeToolchainDirs(entry: string, homeDir: string): string[] {
  const [dir, home] = [normalized(entry), normalized(homeDir)];
  if (!isUnder(dir, home) || dir === home) return [];
  const parts = path.relative(home, dir).split(path.sep);
  if (NEVER.has(parts[0]) || parts.includes("..")) return [];
  if (MANAGERS.includes(parts[0])) return [path.join(home, parts[0])];
  // nvm: ~/.nvm/versions/node/<v>/bin; the version's prefix holds lib/node_modules/npm.
  if (parts[0] === ".nvm")
    return parts.length >= 4 && parts[1] === "versions" ? [path.join(home, ...parts.slice(0, 4))] : [dir];
  if (parts[0] === ".cargo") return [dir, path.join(home, ".rustup")];
  if (parts[0] === ".local" && parts[1] === "bin") return [dir, path.join(home, ".local", "lib")];
  // Any other folder on PATH under the home (say ~/bin or ~/go/bin): that folder alone.
  return [dir];
}

/**
 * What to bind read-only for one PATH entry, wherever it is: under the home, `homeToolchainDirs`; elsewhere the
 * entry itself, or, inside a version manager's folder (a pyenv or nvm installed for another user, or with HOME
 * pointing elsewhere: CI, sudo, a service), that manager's folder as under the home, since its shims run
 * `<manager>/libexec/...` by absolute path.
 */
export function toolchainDirs(entry: string, homeDir: string | undefined): string[] {
  const dir = normalized(entry);
  if (homeDir !== undefined && isUnder(dir, normalized(homeDir))) return homeToolchainDirs(dir, homeDir);
  const parts = dir.split("/");
  const manager = parts.findIndex((part) => MANAGERS.includes(part));
  if (manager > 0) return [parts.slice(0, manager + 1).join("/")];
  const nvm = parts.indexOf(".nvm");
  if (nvm > 0 && parts[nvm + 1] === "versions" && parts.length >= nvm + 4) return [parts.slice(0, nvm + 4).join("/")];
  return [dir];
}
