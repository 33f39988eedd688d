// What a service needs of its clients: methods it answers and notifications it sends. One RpcPeer is one client
// (the private worker of a window, the in-process CLI); a PeerHub is every client of the shared worker.
import type { z } from "zod";
import type { MethodSpec, NotificationSpec } from "../../protocol/envelope";
import type { Disposable } from "../disposable";

export interface ServicePeer {
  handle<P extends z.ZodType, R extends z.ZodType>(
    spec: MethodSpec<P, R>,
    handler: (params: z.output<P>, signal: AbortSignal) => Promise<z.input<R>> | z.input<R>,
  ): Disposable;
  notify<P extends z.ZodType>(spec: NotificationSpec<P>, params: z.input<P>): void;
}
