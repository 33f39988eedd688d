// `swarmboard run --server` and `swarmboard mcp --server`: attach to the user's shared worker of this version, or
// start one detached (`swarmboard serve`, its output appended to a log beside the socket) and attach once it listens.
// Several clients may start one at once: the server's start lock lets one serve and the others exit at once. One
// that fails to start is reported at once with its log's last lines (src/core/server/startedServer.ts).
import { spawn } from "node:child_process";
import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { awaitStartedServer, startedServer, type StartedServer } from "../core/server/startedServer";
import { extensionVersion } from "../protocol/buildInfo";
import type { clientKinds } from "../protocol/serverRpc";
import { ensurePrivateDir, thisMachinePaths } from "../worker/server/serverFiles";
import { connectToServer, NoServerError, type ServerConnection } from "./serverConnection";

/** How long a client waits for a server it started to listen (it loads node-llama-cpp's bindings first). */
const serverStartMs = 120_000;

/** Starts `swarmboard serve` detached from this process: it outlives this client. */
function startServer(log: (line: string) => void): StartedServer & { logFile: string; socket: string } {
  const paths = thisMachinePaths(extensionVersion);
  ensurePrivateDir(paths.dir);
  const out = openSync(paths.logFile, "a", 0o600);
  const from = fstatSync(out).size;
  try {
    // This bundle's own entry point (dist/cli/main.js): the server is of this client's version.
    const child = spawn(process.execPath, [process.argv[1]!, "serve"], { detached: true, stdio: ["ignore", out, out] });
    child.unref();
    log(`started the Swarmboard server (pid ${child.pid ?? "?"}); its log: ${paths.logFile}`);
    return {
      ...startedServer(child, process.execPath, () => readFileSync(paths.logFile).subarray(from).toString("utf8")),
      logFile: paths.logFile,
      socket: paths.socket,
    };
  } finally {
    closeSync(out);
  }
}

export async function attachToServer(
  client: (typeof clientKinds)[number],
  log: (line: string) => void,
): Promise<ServerConnection> {
  const attempt = () =>
    connectToServer(client).catch((err: unknown) => {
      if (err instanceof NoServerError) return undefined;
      throw err;
    });
  const first = await attempt();
  if (first) return first;
  const started = startServer(log);
  return awaitStartedServer({
    started,
    connect: attempt,
    socket: started.socket,
    logFile: started.logFile,
    limitMs: serverStartMs,
  });
}
