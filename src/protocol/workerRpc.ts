// Host <-> worker methods and notifications. The worker serves these; the host calls them.
import { z } from "zod";
import { defineMethod, defineNotification } from "./envelope";

export const pingMethod = defineMethod(
  "ping",
  z.object({ nonce: z.string().max(200) }),
  z.object({
    nonce: z.string(),
    /** The extension's version the worker was built from. */
    version: z.string(),
    pid: z.number().int(),
    node: z.string(),
  }),
);

/** Sent once by the worker when it is ready to serve requests. */
export const workerReadyNotification = defineNotification(
  "worker/ready",
  z.object({ version: z.string(), pid: z.number().int() }),
);

/** A line for the host's output channel. */
export const workerLogNotification = defineNotification(
  "worker/log",
  z.object({ level: z.enum(["debug", "info", "warn", "error"]), message: z.string() }),
);
