// `swarmboard run`, `watch` and `mcp` attach to the user's shared server by default, starting one detached when none
// runs. A test that spawns them must never reach the developer's own server, nor another test's: `ownServerFolder()`
// in a describe gives that suite a server folder of its own (XDG_RUNTIME_DIR, which every child inherits) and stops
// the servers started in it when the suite ends.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pids in the info files of the servers started in `runtimeDir` (one per version: `server-<version>.json`). */
export function serverPidsIn(runtimeDir: string): number[] {
  const dir = path.join(runtimeDir, "swarmboard");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => /^server-.*\.json$/.test(name))
    .flatMap((name) => {
      try {
        const { pid } = JSON.parse(readFileSync(path.join(dir, name), "utf8")) as { pid: unknown };
        return typeof pid === "number" ? [pid] : [];
      } catch {
        return []; // being written or removed as the server starts or stops
      }
    });
}

/** Stops the servers started in `runtimeDir` (SIGTERM, then SIGKILL after 30 s) and waits for them to exit. */
export async function stopServersIn(runtimeDir: string): Promise<void> {
  for (const pid of serverPidsIn(runtimeDir)) {
    if (!alive(pid)) continue;
    process.kill(pid, "SIGTERM");
    const deadline = Date.now() + 30_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (alive(pid)) process.kill(pid, "SIGKILL");
  }
}

/** Gives the enclosing describe its own server folder; returns it (set once its `before` ran). */
export function ownServerFolder(): { readonly dir: string } {
  const folder = { dir: "" };
  let saved: string | undefined;
  before(() => {
    saved = process.env.XDG_RUNTIME_DIR;
    folder.dir = mkdtempSync(path.join(os.tmpdir(), "sb-server-"));
    process.env.XDG_RUNTIME_DIR = folder.dir;
  });
  after(async function () {
    this.timeout(60_000);
    await stopServersIn(folder.dir);
    if (saved === undefined) delete process.env.XDG_RUNTIME_DIR;
    else process.env.XDG_RUNTIME_DIR = saved;
    rmSync(folder.dir, { recursive: true, force: true });
  });
  return folder;
}
