// A client's connection to the user's shared worker (`swarmboard serve`): the socket of this version, the token
// from its file, `server/hello` first. Says plainly when no server runs, so the caller can start one or say so.
import net from "node:net";
import { LineTransport } from "../core/rpc/lineTransport";
import { RpcPeer } from "../core/rpc/rpcPeer";
import { extensionVersion } from "../protocol/buildInfo";
import { helloMethod, type clientKinds } from "../protocol/serverRpc";
import { readToken, thisMachinePaths } from "../worker/server/serverFiles";

export interface ServerConnection {
  readonly peer: RpcPeer;
  readonly socketPath: string;
  /** Called once the connection closed (this side's close, or the server's: it exited or dropped this client). */
  onClose(listener: () => void): void;
  close(): void;
}

/** Thrown when nothing listens on this version's socket (no server started, or it exited). */
export class NoServerError extends Error {
  constructor(
    readonly socketPath: string,
    version: string,
  ) {
    super(`No Swarmboard server of version ${version} is running (nothing listens on ${socketPath}).`);
    this.name = "NoServerError";
  }
}

function connectSocket(socketPath: string, version: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    socket.once("connect", () => {
      socket.off("error", reject);
      resolve(socket);
    });
    socket.once("error", (err: NodeJS.ErrnoException) => {
      reject(err.code === "ENOENT" || err.code === "ECONNREFUSED" ? new NoServerError(socketPath, version) : err);
    });
  });
}

/** `version`: the server's version to attach to (this bundle's own; tests compiled without a stamp name it). */
export async function connectToServer(
  client: (typeof clientKinds)[number],
  version = extensionVersion,
): Promise<ServerConnection> {
  const paths = thisMachinePaths(version);
  const socket = await connectSocket(paths.socket, version);
  socket.setEncoding("utf8");
  const peer = new RpcPeer(new LineTransport(socket, { onViolation: () => socket.destroy() }));
  socket.on("error", () => undefined); // its close fails the pending requests (below)
  const closeListeners: Array<() => void> = [];
  socket.on("close", () => {
    peer.failPending({ code: "disconnected", message: "The Swarmboard server closed." });
    for (const listener of closeListeners.splice(0)) listener();
  });
  const close = () => {
    peer.dispose();
    socket.destroy();
  };
  try {
    let token: string;
    try {
      token = readToken(paths);
    } catch (err) {
      throw new Error(`Could not read the server's token (${(err as Error).message}).`);
    }
    await peer.request(helloMethod, { token, version, client, pid: process.pid });
  } catch (err) {
    close();
    throw err;
  }
  const onClose = (listener: () => void) => {
    if (socket.destroyed) listener();
    else closeListeners.push(listener);
  };
  return { peer, socketPath: paths.socket, onClose, close };
}
