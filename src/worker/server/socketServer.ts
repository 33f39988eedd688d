// The shared worker's front door: a local socket (never TCP), one RpcPeer per connection, and nothing served on a
// connection until its first request, `server/hello`, names the user's token and this server's version. A client
// that sends garbage, says nothing, or vanishes mid-request loses its own connection and nothing else.
import { timingSafeEqual } from "node:crypto";
import { chmodSync, rmSync } from "node:fs";
import net from "node:net";
import { HandlerError, RpcPeer } from "../../core/rpc/rpcPeer";
import { LineTransport } from "../../core/rpc/lineTransport";
import type { PeerHub } from "../../core/rpc/peerHub";
import type { Disposable } from "../../core/disposable";
import { helloMethod, type ServerStatus } from "../../protocol/serverRpc";
import { workerReadyNotification } from "../../protocol/workerRpc";
import { readPeerCredentials, type PeerCredentials } from "./peerCredentials";

export type ClientInfo = ServerStatus["clients"][number];

export interface SocketServerOptions {
  readonly socketPath: string;
  readonly token: string;
  readonly version: string;
  readonly hub: PeerHub;
  log(level: "info" | "warn", message: string): void;
  /** A client attached (after hello) or left. */
  onClientsChanged(): void;
  /** How long a connection may stay silent before its hello; then it is closed. */
  readonly helloTimeoutMs?: number;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export class SocketServer implements Disposable {
  private readonly server: net.Server;
  private readonly clientsById = new Map<number, ClientInfo>();
  private readonly sockets = new Set<net.Socket>();
  private nextId = 1;

  constructor(private readonly options: SocketServerOptions) {
    this.server = net.createServer((socket) => this.accept(socket));
  }

  get clients(): ClientInfo[] {
    return [...this.clientsById.values()];
  }

  /** Listens on the socket path (a stale socket there is removed: the caller holds the start lock). */
  async listen(): Promise<void> {
    if (process.platform !== "win32") rmSync(this.options.socketPath, { force: true });
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(this.options.socketPath, () => {
        this.server.off("error", reject);
        resolve();
      });
    });
    if (process.platform !== "win32") chmodSync(this.options.socketPath, 0o600);
  }

  dispose(): void {
    for (const socket of this.sockets) socket.destroy();
    this.server.close();
    if (process.platform !== "win32") rmSync(this.options.socketPath, { force: true });
  }

  /** A peer the kernel says is another user is refused whatever token it holds: this server is one user's. */
  private refuseAnotherUser(peer: PeerCredentials, close: () => void): void {
    const ownUid = process.getuid?.();
    if (!peer.known || ownUid === undefined || peer.uid === ownUid) return;
    this.options.log(
      "warn",
      `refused a client running as uid ${peer.uid} (pid ${peer.pid}): this server is uid ${ownUid}'s`,
    );
    close();
    throw new HandlerError(
      "unauthorized",
      `This Swarmboard server runs as uid ${ownUid} and serves only that user; this client runs as uid ${peer.uid}. ` +
        "Each user starts a server of their own (its socket is in that user's runtime folder); check that folder's " +
        "modes (0700) if another user could reach this one.",
    );
  }

  /** Reads nothing until the kernel said who connected, so a hello and the requests right behind it (a client may
   * send them together) are handled in order with the answer in hand; the bytes wait in the socket meanwhile. */
  private accept(socket: net.Socket): void {
    const id = this.nextId++;
    const { log } = this.options;
    this.sockets.add(socket);
    socket.on("error", (err) => log("warn", `client ${id}: ${err.message}`));
    socket.once("close", () => this.sockets.delete(socket));
    const silent = setTimeout(() => {
      log("warn", `client ${id} did not say hello in time; its connection was closed.`);
      socket.destroy();
    }, this.options.helloTimeoutMs ?? 10_000);
    socket.once("close", () => clearTimeout(silent));
    void readPeerCredentials(socket).then((peerIs) => {
      if (!socket.destroyed) this.serve(socket, id, peerIs, () => clearTimeout(silent));
    });
  }

  private serve(socket: net.Socket, id: number, peerIs: PeerCredentials, greeted: () => void): void {
    const { log, hub } = this.options;
    socket.setEncoding("utf8");
    const transport = new LineTransport(socket, { onViolation: (reason) => log("warn", `client ${id}: ${reason}`) });
    const peer = new RpcPeer(transport, {
      onViolation: (v) => log("warn", `client ${id} sent a message that failed its schema: ${v.reason}`),
    });
    let attached: Disposable | undefined;
    peer.handle(helloMethod, (hello) => {
      if (attached !== undefined) throw new HandlerError("already-connected", "This connection already said hello.");
      this.refuseAnotherUser(peerIs, () => setImmediate(() => socket.destroy()));
      if (!sameToken(hello.token, this.options.token)) {
        setImmediate(() => socket.destroy());
        throw new HandlerError(
          "unauthorized",
          "The token does not match this user's Swarmboard server token; the connection is closed. " +
            "Clients read it from the token file next to the socket.",
        );
      }
      if (hello.version !== this.options.version) {
        setImmediate(() => socket.destroy());
        throw new HandlerError(
          "version-mismatch",
          `This Swarmboard server is version ${this.options.version} and the client is ${hello.version}: ` +
            "a client starts a server of its own version beside this one.",
          { serverVersion: this.options.version },
        );
      }
      greeted();
      attached = hub.attach(peer);
      const uid = peerIs.known ? { uid: peerIs.uid } : {};
      this.clientsById.set(id, { id, kind: hello.client, pid: hello.pid, ...uid });
      const who = peerIs.known ? `uid ${peerIs.uid}` : `uid not checked: ${peerIs.why}`;
      log("info", `client ${id} attached (${hello.client}, pid ${hello.pid}, ${who})`);
      this.options.onClientsChanged();
      // After the hello's answer: the client's supervisor marks the worker ready on this, as on a forked one's.
      setImmediate(() => peer.notify(workerReadyNotification, { version: this.options.version, pid: process.pid }));
      return { version: this.options.version, pid: process.pid, clientId: id };
    });
    socket.on("close", () => {
      attached?.dispose();
      peer.dispose();
      transport.dispose();
      if (this.clientsById.delete(id)) {
        log("info", `client ${id} left`);
        this.options.onClientsChanged();
      }
    });
  }
}
