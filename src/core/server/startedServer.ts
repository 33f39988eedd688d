// A client that started the user's server (`swarmboard serve`, detached) waits for it to listen. The server may
// exit first: with 0 when another client's server won the start lock (that one listens soon: keep waiting), or
// with an error or a signal when it cannot serve (a runtime that does not load, a folder it may not write). Then
// waiting longer helps nobody: the client says so at once with what the server wrote to its log. Pure: the CLI and
// the editor each give their own way to connect, to see the exit and to read the log.

export interface ServerExit {
  readonly code: number | null;
  readonly signal: string | null;
}

export interface StartedServer {
  readonly pid: number | undefined;
  /** How it exited, once it has; undefined while it runs. */
  exit(): ServerExit | undefined;
  /** What it wrote to its log since it was started (read when it failed). */
  logSince(): string;
}

/** What a spawned `serve` child says of itself (Node's ChildProcess, without importing it here). */
export interface ServerChild {
  readonly pid?: number | undefined;
  once(event: "exit", listener: (code: number | null, signal: string | null) => void): unknown;
  once(event: "error", listener: (error: Error) => void): unknown;
}

/** A started server from its child process and a reader of its log since the start (the CLI's and the window's). */
export function startedServer(child: ServerChild, command: string, logSince: () => string): StartedServer {
  let exit: ServerExit | undefined;
  let spawnError = "";
  child.once("exit", (code, signal) => (exit = { code, signal }));
  child.once("error", (error) => {
    spawnError = `${command} could not be started: ${error.message}\n`;
    exit = { code: -1, signal: null };
  });
  return { pid: child.pid, exit: () => exit, logSince: () => spawnError + logSince() };
}

export interface ServerWait<T> {
  readonly started: StartedServer;
  /** A connection, or undefined while nothing listens yet; throws for anything else. */
  readonly connect: () => Promise<T | undefined>;
  readonly socket: string;
  readonly logFile: string;
  readonly limitMs: number;
  readonly pollMs?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** The server this client started did not come up: why, with its log's last lines. */
export class ServerStartError extends Error {
  constructor(
    message: string,
    /** One line for a notification: what happened and the last thing the server said. */
    readonly headline: string,
  ) {
    super(message);
  }
}

const logLines = 12;

function lastLines(text: string): string {
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  if (lines.length === 0) return "It wrote nothing to its log.";
  return `The last lines of its log:\n${lines
    .slice(-logLines)
    .map((l) => `  ${l}`)
    .join("\n")}`;
}

/** The server's last words, when it wrote any. */
function lastWords(text: string): string {
  const last = text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .at(-1);
  return last === undefined ? "" : `: ${last.trim()}`;
}

function exitText(exit: ServerExit): string {
  return exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code ?? "?"}`;
}

/** Resolves with the first connection to the server; rejects as soon as the server started here failed. */
export async function awaitStartedServer<T>(wait: ServerWait<T>): Promise<T> {
  const now = wait.now ?? Date.now;
  const sleep = wait.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const deadline = now() + wait.limitMs;
  const who = `The shared Swarmboard server started here (pid ${wait.started.pid ?? "?"})`;
  for (;;) {
    await sleep(wait.pollMs ?? 250);
    const connection = await wait.connect();
    if (connection !== undefined) return connection;
    const exit = wait.started.exit();
    // Exit 0 before listening: another client's server holds the start lock and is about to listen.
    if (exit !== undefined && (exit.code !== 0 || exit.signal !== null))
      throw new ServerStartError(
        `${who} ${exitText(exit)} before it listened on ${wait.socket}. ${lastLines(wait.started.logSince())}\n` +
          `Its whole log: ${wait.logFile}. Fix what it says and try again, or run without the shared server ` +
          "(`--no-server` on the command line, the setting swarmboard.sharedWorker off in the editor).",
        `its server ${exitText(exit)} at its start${lastWords(wait.started.logSince())}`,
      );
    if (now() > deadline)
      throw new ServerStartError(
        `${who} did not listen on ${wait.socket} within ${Math.round(wait.limitMs / 1000)} s` +
          `${exit === undefined ? " and still runs" : ""}. ${lastLines(wait.started.logSince())}\n` +
          `Its whole log: ${wait.logFile}. See \`swarmboard serve --status\`, or run without the shared server ` +
          "(`--no-server` on the command line, the setting swarmboard.sharedWorker off in the editor).",
        `its server did not listen within ${Math.round(wait.limitMs / 1000)} s${lastWords(wait.started.logSince())}`,
      );
  }
}
