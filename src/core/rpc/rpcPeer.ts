// One generic peer over the one envelope: both ends of every process boundary use it (host and worker, or the
// MCP server and the worker's service in one process). The webview's messages do not go through it.
import type { z } from "zod";
import {
  envelopeSchema,
  type ErrorData,
  type MethodSpec,
  type NotificationSpec,
  type RequestEnvelope,
} from "../../protocol/envelope";
import { type Disposable, DisposableBase, toDisposable } from "../disposable";
import type { Transport } from "./transport";

/** A failed request, carrying the error data the other side sent. */
export class RpcError extends Error {
  constructor(readonly error: ErrorData) {
    super(`${error.code}: ${error.message}`);
    this.name = "RpcError";
  }
}

/** Throw this from a handler to answer with a specific error code. */
export class HandlerError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "HandlerError";
  }
}

/** Why a message was refused at the boundary; the peer reports it and goes on. */
export interface ProtocolViolation {
  reason: string;
  message: unknown;
}

type Handler = (params: unknown, signal: AbortSignal) => Promise<unknown> | unknown;

interface Pending {
  resolve(value: unknown): void;
  reject(err: unknown): void;
  result: z.ZodType;
}

export interface RpcPeerOptions {
  /** Called for every message that fails its schema; the message is dropped. */
  onViolation?: (violation: ProtocolViolation) => void;
}

export class RpcPeer extends DisposableBase {
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  private readonly handlers = new Map<string, { params: z.ZodType; handler: Handler }>();
  private readonly notificationListeners = new Map<string, Set<(params: unknown) => void>>();
  private readonly running = new Map<number, AbortController>();
  /** Requests this side cancelled: their late answers are expected, not violations. */
  private readonly cancelled = new Set<number>();

  constructor(
    private readonly transport: Transport,
    private readonly options: RpcPeerOptions = {},
  ) {
    super();
    this.register(transport.onMessage((m) => this.receive(m)));
    this.register(toDisposable(() => this.failPending({ code: "disposed", message: "The connection was closed." })));
  }

  /** `signal` cancels the request: the other side's handler sees its own signal abort, and this rejects with `cancelled`. */
  request<P extends z.ZodType, R extends z.ZodType>(
    spec: MethodSpec<P, R>,
    params: z.input<P>,
    signal?: AbortSignal,
  ): Promise<z.output<R>> {
    if (this.isDisposed)
      return Promise.reject(new RpcError({ code: "disposed", message: "The connection was closed." }));
    // Our own bad params are refused like the other side would refuse them: as a rejected promise with
    // `invalid-params`, so callers handle one failure shape (not a synchronous ZodError).
    const parsed = spec.params.safeParse(params);
    if (!parsed.success) {
      return Promise.reject(
        new RpcError({ code: "invalid-params", message: `params of ${spec.method}: ${parsed.error.message}` }),
      );
    }
    const checked = parsed.data;
    const id = this.nextId++;
    if (signal?.aborted)
      return Promise.reject(new RpcError({ code: "cancelled", message: `${spec.method} was cancelled.` }));
    return new Promise<z.output<R>>((resolve, reject) => {
      const onAbort = () => {
        if (!this.pending.delete(id)) return;
        this.cancelled.add(id);
        if (!this.isDisposed) this.transport.send({ kind: "cancel", id });
        reject(new RpcError({ code: "cancelled", message: `${spec.method} was cancelled.` }));
      };
      const settle =
        <T>(fn: (value: T) => void) =>
        (value: T) => {
          signal?.removeEventListener("abort", onAbort);
          fn(value);
        };
      signal?.addEventListener("abort", onAbort);
      this.pending.set(id, {
        resolve: settle((v: unknown) => resolve(v as z.output<R>)),
        reject: settle(reject),
        result: spec.result,
      });
      this.transport.send({ kind: "request", id, method: spec.method, params: checked });
    });
  }

  notify<P extends z.ZodType>(spec: NotificationSpec<P>, params: z.input<P>): void {
    if (this.isDisposed) return;
    this.transport.send({ kind: "notification", method: spec.method, params: spec.params.parse(params) });
  }

  handle<P extends z.ZodType, R extends z.ZodType>(
    spec: MethodSpec<P, R>,
    handler: (params: z.output<P>, signal: AbortSignal) => Promise<z.input<R>> | z.input<R>,
  ): Disposable {
    this.handlers.set(spec.method, { params: spec.params, handler: handler as Handler });
    return toDisposable(() => this.handlers.delete(spec.method));
  }

  onNotification<P extends z.ZodType>(spec: NotificationSpec<P>, listener: (params: z.output<P>) => void): Disposable {
    let set = this.notificationListeners.get(spec.method);
    if (!set) {
      set = new Set();
      this.notificationListeners.set(spec.method, set);
    }
    const wrapped = (raw: unknown) => {
      const parsed = spec.params.safeParse(raw);
      if (parsed.success) listener(parsed.data);
      else this.violation(`notification ${spec.method} failed its schema: ${parsed.error.message}`, raw);
    };
    set.add(wrapped);
    return toDisposable(() => set.delete(wrapped));
  }

  /** Rejects every request still waiting, e.g. when the other process died. */
  failPending(error: ErrorData): void {
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(new RpcError(error));
    }
  }

  private receive(raw: unknown): void {
    const parsed = envelopeSchema.safeParse(raw);
    if (!parsed.success) {
      this.violation(`message is not a valid envelope: ${parsed.error.message}`, raw);
      return;
    }
    const msg = parsed.data;
    switch (msg.kind) {
      case "request":
        void this.serve(msg);
        return;
      case "response": {
        const p = this.pending.get(msg.id);
        if (!p) {
          if (this.cancelled.delete(msg.id)) return;
          this.violation(`response to unknown request ${msg.id}`, raw);
          return;
        }
        this.pending.delete(msg.id);
        if (!msg.ok) {
          p.reject(new RpcError(msg.error));
          return;
        }
        const result = p.result.safeParse(msg.result);
        if (result.success) p.resolve(result.data);
        else
          p.reject(
            new RpcError({ code: "invalid-result", message: `The result failed its schema: ${result.error.message}` }),
          );
        return;
      }
      case "notification":
        this.notificationListeners.get(msg.method)?.forEach((l) => l(msg.params));
        return;
      case "cancel":
        this.running.get(msg.id)?.abort();
        return;
    }
  }

  private async serve(msg: RequestEnvelope): Promise<void> {
    const entry = this.handlers.get(msg.method);
    if (!entry) {
      this.respondError(msg.id, { code: "method-not-found", message: `No handler for "${msg.method}".` });
      return;
    }
    const params = entry.params.safeParse(msg.params);
    if (!params.success) {
      this.violation(`params of ${msg.method} failed their schema: ${params.error.message}`, msg);
      this.respondError(msg.id, { code: "invalid-params", message: params.error.message });
      return;
    }
    const controller = new AbortController();
    this.running.set(msg.id, controller);
    try {
      const result = await entry.handler(params.data, controller.signal);
      if (!this.isDisposed) this.transport.send({ kind: "response", id: msg.id, ok: true, result });
    } catch (err) {
      this.respondError(msg.id, toErrorData(err));
    } finally {
      this.running.delete(msg.id);
    }
  }

  private respondError(id: number, error: ErrorData): void {
    if (!this.isDisposed) this.transport.send({ kind: "response", id, ok: false, error });
  }

  private violation(reason: string, message: unknown): void {
    this.options.onViolation?.({ reason, message });
  }
}

export function toErrorData(err: unknown): ErrorData {
  if (err instanceof HandlerError) return { code: err.code, message: err.message, data: err.data };
  if (err instanceof RpcError) return err.error;
  if (err instanceof Error) return { code: "internal", message: err.message };
  return { code: "internal", message: String(err) };
}
