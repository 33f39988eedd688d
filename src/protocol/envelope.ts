// The one message envelope for every process boundary: host <-> worker over IPC, and in-process where the worker's
// service runs beside its caller (`swarmboard mcp`, tests). The webview's messages are not enveloped: the panel
// needs no requests or cancels, so they are their own small union (src/protocol/webviewMessages.ts).
// Requests carry an id and get exactly one response; notifications carry none (streams, such as a swarm's
// events, travel as notifications); a cancel ends a request early; errors travel as data, never as throws.
import { z } from "zod";

export const errorDataSchema = z.object({
  /** A stable machine-readable code, e.g. `model-not-found`, `kv-full`, `invalid-params`. */
  code: z.string().min(1),
  /** What happened and what to do, written for a person. */
  message: z.string(),
  /** Optional structured detail (paths, causes). */
  data: z.unknown().optional(),
});
export type ErrorData = z.infer<typeof errorDataSchema>;

export const requestSchema = z.object({
  kind: z.literal("request"),
  id: z.number().int().nonnegative(),
  method: z.string().min(1),
  params: z.unknown(),
});

export const responseSchema = z.discriminatedUnion("ok", [
  z.object({
    kind: z.literal("response"),
    id: z.number().int().nonnegative(),
    ok: z.literal(true),
    result: z.unknown(),
  }),
  z.object({
    kind: z.literal("response"),
    id: z.number().int().nonnegative(),
    ok: z.literal(false),
    error: errorDataSchema,
  }),
]);

export const notificationSchema = z.object({
  kind: z.literal("notification"),
  method: z.string().min(1),
  params: z.unknown(),
});

export const cancelSchema = z.object({
  kind: z.literal("cancel"),
  id: z.number().int().nonnegative(),
});

export const envelopeSchema = z.union([requestSchema, responseSchema, notificationSchema, cancelSchema]);
export type Envelope = z.infer<typeof envelopeSchema>;
export type RequestEnvelope = z.infer<typeof requestSchema>;
export type ResponseEnvelope = z.infer<typeof responseSchema>;
export type NotificationEnvelope = z.infer<typeof notificationSchema>;

/**
 * A method of a protocol: its name and the schemas of what goes in and what comes out.
 * Both sides parse with the same schemas, so a message that fails one is rejected at the edge.
 */
export interface MethodSpec<P extends z.ZodType, R extends z.ZodType> {
  readonly method: string;
  readonly params: P;
  readonly result: R;
}

export function defineMethod<P extends z.ZodType, R extends z.ZodType>(
  method: string,
  params: P,
  result: R,
): MethodSpec<P, R> {
  return { method, params, result };
}

/** A notification: a name and the schema of its payload. */
export interface NotificationSpec<P extends z.ZodType> {
  readonly method: string;
  readonly params: P;
}

export function defineNotification<P extends z.ZodType>(method: string, params: P): NotificationSpec<P> {
  return { method, params };
}
