// The shared worker's own methods (`swarmboard serve`): a client's first request, what the server is doing, and
// stop. Every other method a client calls after hello is the worker's usual service (swarmRpc, historyRpc, ...).
import { z } from "zod";
import { defineMethod } from "./envelope";

export const clientKinds = ["vscode", "cli", "mcp", "test"] as const;

/** The first request on a connection; until it succeeds the server serves nothing else on it. */
export const helloMethod = defineMethod(
  "server/hello",
  z.object({
    /** The per-user token from the token file (the socket's folder is the user's own; this is the second lock). */
    token: z.string().min(1).max(200),
    /** The client's extension version: a server only serves clients of its own version. */
    version: z.string().min(1).max(100),
    client: z.enum(clientKinds),
    /** The client's process id, shown by `serve --status` and Check Worker. */
    pid: z.number().int().nonnegative(),
  }),
  z.object({ version: z.string(), pid: z.number().int(), clientId: z.number().int() }),
);

export const serverStatusSchema = z.object({
  pid: z.number().int(),
  version: z.string(),
  socket: z.string(),
  startedAt: z.number(),
  /** Set once the server takes no new swarm (a newer version started beside it, or `--stop` while swarms run). */
  draining: z.boolean(),
  clients: z.array(
    z.object({
      id: z.number().int(),
      kind: z.enum(clientKinds),
      pid: z.number().int(),
      /** The client's uid as the kernel told it (SO_PEERCRED); absent where it could not be asked. */
      uid: z.number().int().nonnegative().optional(),
    }),
  ),
  /** Resident memory of the server process, in bytes. */
  rssBytes: z.number().int().nonnegative(),
  /** How many times this server loaded a model file (one model loaded once is 1, whatever the clients). */
  modelLoads: z.number().int().nonnegative(),
  /** Ids of the swarms running in the server. */
  swarms: z.array(z.string()),
  /** Minutes without a client or a swarm after which the server exits. */
  idleMinutes: z.number().nonnegative(),
});
export type ServerStatus = z.infer<typeof serverStatusSchema>;

export const serverStatusMethod = defineMethod("server/status", z.object({}), serverStatusSchema);

/** Stop the server: at once when no swarm runs, else it drains (takes no new swarm and exits after the last). */
export const serverStopMethod = defineMethod(
  "server/stop",
  z.object({}),
  z.object({ stopping: z.enum(["now", "after-swarms"]) }),
);

/**
 * Follow swarms' event streams on this connection (the shared worker sends a swarm's events only to the connection
 * that launched it and to those that follow it): a window showing the swarms its folders have after a reload.
 * `traceBytes`: for each of them that runs, the length of its events trace when this connection began to get its
 * events. Its state so far is the trace up to there (history/events with that `traceBytes`), folded before the
 * events that arrive from now on: none is missed and none is folded twice (board entries are read whole from the
 * board, and a board entry seen twice is kept once).
 */
export const swarmFollowMethod = defineMethod(
  "swarm/follow",
  z.object({ swarmIds: z.array(z.string().min(1).max(200)).max(10_000) }),
  z.object({
    following: z.array(z.string()),
    traceBytes: z.record(z.string(), z.number().int().nonnegative()).optional(),
  }),
);
