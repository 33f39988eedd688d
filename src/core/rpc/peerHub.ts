// Every client of the shared worker as one ServicePeer: a method the services register is answered on every
// connection, now and later. A connection that goes away takes only its own handlers with it (a running swarm does
// not notice a window reload). Notifications that belong to one topic (a swarm's events) go only to the connections
// that follow it: the one that launched it, and those that asked to follow it (a window showing it after a reload);
// the others (the log, readiness) go to every connection.
import type { z } from "zod";
import type { MethodSpec, NotificationSpec } from "../../protocol/envelope";
import { DisposableStore, toDisposable, type Disposable } from "../disposable";
import type { RpcPeer } from "./rpcPeer";
import type { ServicePeer } from "./servicePeer";

type Registration = (peer: RpcPeer) => Disposable;

/** How notifications and answers map to topics. */
export interface HubTopics {
  /** The topic of a notification (undefined: every connection gets it). */
  topicOf(method: string, params: unknown): string | undefined;
  /** The topic a connection follows once this request of its was answered with `result` (e.g. a launch). */
  followsAfter(method: string, result: unknown): string | undefined;
}

const noTopics: HubTopics = { topicOf: () => undefined, followsAfter: () => undefined };

interface Attached {
  readonly handles: Map<Registration, Disposable>;
  readonly topics: Set<string>;
}

export class PeerHub implements ServicePeer {
  private readonly registrations = new Set<Registration>();
  private readonly peers = new Map<RpcPeer, Attached>();

  constructor(private readonly topics: HubTopics = noTopics) {}

  get size(): number {
    return this.peers.size;
  }

  handle<P extends z.ZodType, R extends z.ZodType>(
    spec: MethodSpec<P, R>,
    handler: (params: z.output<P>, signal: AbortSignal) => Promise<z.input<R>> | z.input<R>,
  ): Disposable {
    return this.register((peer) =>
      peer.handle(spec, async (params, signal) => {
        const result = await handler(params, signal);
        const topic = this.topics.followsAfter(spec.method, result);
        if (topic !== undefined) this.peers.get(peer)?.topics.add(topic);
        return result;
      }),
    );
  }

  /**
   * Answers `spec` by making the asking connection follow the topics it names (`answer` is told which it follows
   * now, and which it asked for). `answer` is called in the same tick as the topics are added: what it notes there
   * (where a swarm's trace stands) is exactly where the connection's notifications begin.
   */
  handleFollow<P extends z.ZodType, R extends z.ZodType>(
    spec: MethodSpec<P, R>,
    topicsOf: (params: z.output<P>) => readonly string[],
    answer: (following: string[], asked: readonly string[]) => z.input<R> | Promise<z.input<R>>,
  ): Disposable {
    return this.register((peer) =>
      peer.handle(spec, (params) => {
        const topics = this.peers.get(peer)?.topics;
        const asked = topicsOf(params);
        for (const topic of asked) topics?.add(topic);
        return answer([...(topics ?? [])], asked);
      }),
    );
  }

  /** Serves a registration on every connection, now and later, until the returned disposable takes it off all. */
  private register(registration: Registration): Disposable {
    this.registrations.add(registration);
    for (const [peer, attached] of this.peers) attached.handles.set(registration, registration(peer));
    return toDisposable(() => {
      this.registrations.delete(registration);
      for (const { handles } of this.peers.values()) {
        handles.get(registration)?.dispose();
        handles.delete(registration);
      }
    });
  }

  notify<P extends z.ZodType>(spec: NotificationSpec<P>, params: z.input<P>): void {
    const topic = this.topics.topicOf(spec.method, params);
    for (const [peer, { topics }] of this.peers)
      if (topic === undefined || topics.has(topic)) peer.notify(spec, params);
  }

  /** Serves every registered method on `peer` until the returned disposable (or the peer's end) detaches it. */
  attach(peer: RpcPeer): Disposable {
    const attached: Attached = { handles: new Map(), topics: new Set() };
    for (const registration of this.registrations) attached.handles.set(registration, registration(peer));
    this.peers.set(peer, attached);
    return toDisposable(() => {
      const store = new DisposableStore();
      for (const handle of attached.handles.values()) store.add(handle);
      store.dispose();
      this.peers.delete(peer);
    });
  }
}
