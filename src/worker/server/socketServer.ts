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

  private accept(socket: net.Socket): void {
    const id = this.nextId++;
    const { log, hub } = this.options;
    this.sockets.add(socket);
    socket.setEncoding("utf8");
    const transport = new LineTransport(socket, { onViolation: (reason) => log("warn", `client ${id}: ${reason}`) });
    const peer = new RpcPeer(transport, {
      onViolation: (v) => log("warn", `client ${id} sent a message that failed its schema: ${v.reason}`),
    });
    let attached: Disposable | undefined;
    const silent = setTimeout(() => {
      log("warn", `client ${id} did not say hello in time; its connection was closed.`);
      socket.destroy();
    }, this.options.helloTimeoutMs ?? 10_000);
    peer.handle(helloMethod, (hello) => {
      if (attached !== undefined) throw new HandlerError("already-connected", "This connection already said hello.");
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
      clearTimeout(silent);
      attached = hub.attach(peer);
      this.clientsById.set(id, { id, kind: hello.client, pid: hello.pid });
      log("info", `client ${id} attached (${hello.client}, pid ${hello.pid})`);
      this.options.onClientsChanged();
      // After the hello's answer: the client's supervisor marks the worker ready on this, as on a forked one's.
      setImmediate(() => peer.notify(workerReadyNotification, { version: this.options.version, pid: process.pid }));
      return { version: this.options.version, pid: process.pid, clientId: id };
    });
    socket.on("error", (err) => log("warn", `client ${id}: ${err.message}`));
    socket.on("close", () => {
      clearTimeout(silent);
      attached?.dispose();
      peer.dispose();
      transport.dispose();
      this.sockets.delete(socket);
      if (this.clientsById.delete(id)) {
        log("info", `client ${id} left`);
        this.options.onClientsChanged();
      }
    });
  }
}
