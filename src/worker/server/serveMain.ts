// `swarmboard serve`: the one worker of this user on this machine. Every window, `swarmboard run` and `swarmboard mcp`
// connect to it over its local socket instead of loading the model again; it outlives them (a window reload leaves
// its swarms running) and gives the memory back by itself after `idleMinutes` without a client or a swarm.
// Stopping while swarms run drains: no new swarm starts and it exits after the last one ends.
import { rmSync, writeFileSync } from "node:fs";
import { DisposableStore } from "../../core/disposable";
import { PeerHub, type HubTopics } from "../../core/rpc/peerHub";
import { extensionVersion } from "../../protocol/buildInfo";
import { serverStatusMethod, serverStopMethod, swarmFollowMethod, type ServerStatus } from "../../protocol/serverRpc";
import { resumeSwarmMethod } from "../../protocol/swarmHistoryRpc";
import { startSwarmMethod, swarmEventsNotification } from "../../protocol/swarmRpc";
import { pingMethod, workerLogNotification } from "../../protocol/workerRpc";
import { processRuntime } from "../swarm/processRuntime";
import { WorkerService } from "../workerService";
import { readOrMakeToken, thisMachinePaths } from "./serverFiles";
import { releaseStartLock, takeStartLock } from "./startLock";
import { SocketServer } from "./socketServer";

/** A swarm's events go to the connections that follow it; a launch or resume makes its connection follow it. */
const swarmTopics: HubTopics = {
  topicOf: (method, params) =>
    method === swarmEventsNotification.method ? (params as { swarmId: string }).swarmId : undefined,
  followsAfter: (method, result) =>
    method === startSwarmMethod.method || method === resumeSwarmMethod.method
      ? (result as { swarmId: string }).swarmId
      : undefined,
};

export interface ServeOptions {
  /** Minutes without a client or a swarm before the server exits (0: never). */
  readonly idleMinutes: number;
}

/** Starts the server; resolves "already-running" when another server of this version holds the start lock. */
export async function serve(options: ServeOptions): Promise<"serving" | "already-running"> {
  const paths = thisMachinePaths(extensionVersion);
  const token = readOrMakeToken(paths);
  if (!takeStartLock(paths)) return "already-running";
  const store = new DisposableStore();
  const startedAt = Date.now();
  const hub = new PeerHub(swarmTopics);
  const log = (level: "info" | "warn", message: string) => {
    process.stderr.write(`${new Date().toISOString()} ${level} ${message}\n`);
    hub.notify(workerLogNotification, { level, message: `server: ${message}` });
  };
  const service = store.add(new WorkerService(hub));
  let draining = false;
  let idleTimer: NodeJS.Timeout | undefined;

  const shutdown = (why: string) => {
    log("info", `stopping: ${why}`);
    clearTimeout(idleTimer);
    store.dispose();
    rmSync(paths.infoFile, { force: true });
    releaseStartLock(paths);
    process.exit(0);
  };
  const checkIdle = () => {
    clearTimeout(idleTimer);
    const idle = server.clients.length === 0 && service.runningSwarmIds().length === 0;
    if (draining && service.runningSwarmIds().length === 0) return shutdown("drained: its last swarm ended");
    if (!idle || options.idleMinutes <= 0) return;
    idleTimer = setTimeout(() => shutdown(`idle for ${options.idleMinutes} minute(s)`), options.idleMinutes * 60_000);
    idleTimer.unref?.();
  };
  const server = store.add(
    new SocketServer({
      socketPath: paths.socket,
      token,
      version: extensionVersion,
      hub,
      log,
      onClientsChanged: checkIdle,
    }),
  );
  const status = (): ServerStatus => ({
    pid: process.pid,
    version: extensionVersion,
    socket: paths.socket,
    startedAt,
    draining,
    clients: server.clients,
    rssBytes: process.memoryUsage().rss,
    modelLoads: processRuntime.modelLoadCount(),
    swarms: service.runningSwarmIds(),
    idleMinutes: options.idleMinutes,
  });
  store.add(
    hub.handle(pingMethod, ({ nonce }) => ({
      nonce,
      version: extensionVersion,
      pid: process.pid,
      node: process.version,
    })),
  );
  store.add(hub.handle(serverStatusMethod, () => status()));
  store.add(
    hub.handleFollow(
      swarmFollowMethod,
      ({ swarmIds }) => swarmIds,
      // Where each running swarm's trace stood as its events began to flow here: the follower reads up to there.
      async (following, asked) => ({ following, traceBytes: await service.traceMarks(asked) }),
    ),
  );
  store.add(
    hub.handle(serverStopMethod, () => {
      const wasDraining = draining;
      draining = true;
      service.refuseNewSwarms(
        "The shared Swarmboard worker is stopping after its running swarms (swarmboard serve --stop); launch again " +
          "once it has stopped, and a new one starts.",
      );
      const now = service.runningSwarmIds().length === 0;
      // Draining: look each second, so the server goes soon after its last swarm closed (not at the next sweep).
      // A second --stop while draining starts no second check.
      if (!wasDraining) {
        const drainCheck = setInterval(checkIdle, 1000);
        store.add({ dispose: () => clearInterval(drainCheck) });
      }
      setImmediate(() => (now ? shutdown("asked to stop (serve --stop)") : checkIdle()));
      return { stopping: now ? ("now" as const) : ("after-swarms" as const) };
    }),
  );
  // A swarm's end is what lets a draining or idle server go: look again each minute (cheap, and no new event kind).
  const sweep = setInterval(checkIdle, 60_000);
  sweep.unref();
  store.add({ dispose: () => clearInterval(sweep) });
  try {
    await server.listen();
  } catch (err) {
    releaseStartLock(paths);
    throw err;
  }
  writeFileSync(
    paths.infoFile,
    JSON.stringify({ pid: process.pid, version: extensionVersion, socket: paths.socket, startedAt }),
    { mode: 0o600 },
  );
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => shutdown(`${signal} received`));
  log("info", `serving on ${paths.socket} (pid ${process.pid}, version ${extensionVersion})`);
  checkIdle();
  return "serving";
}
