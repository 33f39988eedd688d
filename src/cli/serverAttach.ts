// `swarmboard run --server` and `swarmboard mcp --server`: attach to the user's shared worker of this version, or
// start one detached (`swarmboard serve`, its output appended to a log beside the socket) and attach once it listens.
// Several clients may start one at once: the server's start lock lets one serve and the others exit at once.
import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { extensionVersion } from "../protocol/buildInfo";
import type { clientKinds } from "../protocol/serverRpc";
import { ensurePrivateDir, thisMachinePaths } from "../worker/server/serverFiles";
import { connectToServer, NoServerError, type ServerConnection } from "./serverConnection";

/** How long a client waits for a server it started to listen (it loads node-llama-cpp's bindings first). */
const serverStartMs = 120_000;

/** Starts `swarmboard serve` detached from this process: it outlives this client. */
function startServer(log: (line: string) => void): void {
  const paths = thisMachinePaths(extensionVersion);
  ensurePrivateDir(paths.dir);
  const logFile = paths.infoFile.replace(/\.json$/, ".log");
  const out = openSync(logFile, "a", 0o600);
  try {
    // This bundle's own entry point (dist/cli/main.js): the server is of this client's version.
    const child = spawn(process.execPath, [process.argv[1]!, "serve"], {
      detached: true,
      stdio: ["ignore", out, out],
    });
    child.unref();
    log(`started the Swarmboard server (pid ${child.pid ?? "?"}); its log: ${logFile}`);
  } finally {
    closeSync(out);
  }
}

export async function attachToServer(
  client: (typeof clientKinds)[number],
  log: (line: string) => void,
): Promise<ServerConnection> {
  try {
    return await connectToServer(client);
  } catch (err) {
    if (!(err instanceof NoServerError)) throw err;
  }
  startServer(log);
  const deadline = Date.now() + serverStartMs;
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    try {
      return await connectToServer(client);
    } catch (err) {
      if (!(err instanceof NoServerError) || Date.now() > deadline) throw err;
    }
  }
}
