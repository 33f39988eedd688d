// Every client of the shared worker as one ServicePeer: a method the services register is answered on every
// connection, now and later; a notification goes to every connection. A connection that goes away takes only its
// own handlers with it (a running swarm does not notice a window reload).
import type { z } from "zod";
import type { MethodSpec, NotificationSpec } from "../../protocol/envelope";
import { DisposableStore, toDisposable, type Disposable } from "../disposable";
import type { RpcPeer } from "./rpcPeer";
import type { ServicePeer } from "./servicePeer";

type Registration = (peer: RpcPeer) => Disposable;

export class PeerHub implements ServicePeer {
  private readonly registrations = new Set<Registration>();
  /** Each attached peer and the handlers registered on it. */
  private readonly peers = new Map<RpcPeer, Map<Registration, Disposable>>();

  get size(): number {
    return this.peers.size;
  }

  handle<P extends z.ZodType, R extends z.ZodType>(
    spec: MethodSpec<P, R>,
    handler: (params: z.output<P>, signal: AbortSignal) => Promise<z.input<R>> | z.input<R>,
  ): Disposable {
    const registration: Registration = (peer) => peer.handle(spec, handler);
    this.registrations.add(registration);
    for (const [peer, handles] of this.peers) handles.set(registration, registration(peer));
    return toDisposable(() => {
      this.registrations.delete(registration);
      for (const handles of this.peers.values()) {
        handles.get(registration)?.dispose();
        handles.delete(registration);
      }
    });
  }

  notify<P extends z.ZodType>(spec: NotificationSpec<P>, params: z.input<P>): void {
    for (const peer of this.peers.keys()) peer.notify(spec, params);
  }

  /** Serves every registered method on `peer` until the returned disposable (or the peer's end) detaches it. */
  attach(peer: RpcPeer): Disposable {
    const handles = new Map<Registration, Disposable>();
    for (const registration of this.registrations) handles.set(registration, registration(peer));
    this.peers.set(peer, handles);
    return toDisposable(() => {
      const store = new DisposableStore();
      for (const handle of handles.values()) store.add(handle);
      store.dispose();
      this.peers.delete(peer);
    });
  }
}
