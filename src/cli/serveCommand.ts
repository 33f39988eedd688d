// `swarmboard serve`: run the user's shared worker in this terminal (until stopped, or idle), or ask the running one
// what it is doing (`--status`) or to stop (`--stop`: at once, or after its swarms when some run).
import { serverStatusMethod, serverStopMethod, type ServerStatus } from "../protocol/serverRpc";
import { serve } from "../worker/server/serveMain";
import { positiveInt, readFlags, UsageError } from "./flagParsing";
import { connectToServer, NoServerError } from "./serverConnection";

export type ServeOptions =
  | { readonly command: "serve"; readonly idleMinutes: number }
  | { readonly command: "serve-status" }
  | { readonly command: "serve-stop" };

export function parseServe(argv: string[]): ServeOptions {
  const f = readFlags(argv, new Set(["--idle-minutes"]), new Set(["--status", "--stop"]));
  if (f.has("--status") && f.has("--stop")) throw new UsageError("serve takes --status or --stop, not both.");
  if (f.has("--status")) return { command: "serve-status" };
  if (f.has("--stop")) return { command: "serve-stop" };
  const idle = f.get("--idle-minutes");
  const idleMinutes = idle === undefined ? 10 : idle === "0" ? 0 : positiveInt("--idle-minutes", idle);
  return { command: "serve", idleMinutes };
}

function statusLines(s: ServerStatus): string {
  const mib = (s.rssBytes / (1024 * 1024)).toFixed(0);
  const uidOf = (c: (typeof s.clients)[number]) => (c.uid === undefined ? "" : `, uid ${c.uid}`);
  const clients = s.clients.map((c) => `${c.kind} (pid ${c.pid}${uidOf(c)})`).join(", ") || "none";
  return [
    `server pid ${s.pid}, version ${s.version}${s.draining ? ", draining (takes no new swarm)" : ""}`,
    `socket ${s.socket}`,
    `clients: ${clients}`,
    `swarms: ${s.swarms.join(", ") || "none"}`,
    `models loaded: ${s.modelLoads}; memory ${mib} MiB`,
    `exits after ${s.idleMinutes > 0 ? `${s.idleMinutes} idle minute(s)` : "never (idle stop off)"}`,
  ].join("\n");
}

export async function serveCommand(opts: ServeOptions): Promise<number> {
  if (opts.command === "serve") {
    const started = await serve({ idleMinutes: opts.idleMinutes });
    if (started === "already-running") {
      process.stderr.write(
        "A Swarmboard server of this version is already running; see `swarmboard serve --status`.\n",
      );
      return 0;
    }
    return new Promise<number>(() => undefined); // serves until stopped, idle, or signalled (serveMain exits)
  }
  let connection;
  try {
    connection = await connectToServer("cli");
  } catch (err) {
    if (!(err instanceof NoServerError)) throw err;
    process.stdout.write(`${err.message}\n`);
    return opts.command === "serve-stop" ? 0 : 1;
  }
  try {
    if (opts.command === "serve-status") {
      process.stdout.write(`${statusLines(await connection.peer.request(serverStatusMethod, {}))}\n`);
    } else {
      const { stopping } = await connection.peer.request(serverStopMethod, {});
      process.stdout.write(
        stopping === "now"
          ? "The server is stopping.\n"
          : "The server takes no new swarm and stops after its swarms end.\n",
      );
    }
    return 0;
  } finally {
    connection.close();
  }
}
