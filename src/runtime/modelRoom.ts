// Whether a second model may load beside the ones a worker holds: its weights (the file, mapped into RAM) and
// room for its KV pool and buffers must fit in the memory the machine can still give, or in what is left of the
// worker's own limit (SWARMBOARD_WORKER_MEMORY_LIMIT, "8GB") when one is set. Otherwise the load is refused with
// the numbers, what is loaded and what to stop, rather than letting two models push the machine into swap.
import { statSync } from "node:fs";
import path from "node:path";
import { parseMemoryBudget } from "../protocol/settings";
import { availableMemoryBytes } from "./availableMemory";
import { SwarmRuntimeError } from "./runtimeErrors";

/** Room kept for the model's KV pool and compute buffers, as a share of its file on top of it. */
export const poolShareOfFile = 0.25;

export interface MemoryRoom {
  /** Bytes the machine can still give (Linux's MemAvailable). */
  readonly availableBytes: number;
  /** This process's resident set. */
  readonly residentBytes: number;
  /** The worker's own limit, when one is set. */
  readonly limitBytes?: number;
}

/** The memory as this process sees it now; the limit from SWARMBOARD_WORKER_MEMORY_LIMIT. */
export function processMemoryRoom(env: NodeJS.ProcessEnv = process.env): MemoryRoom {
  const limit = env["SWARMBOARD_WORKER_MEMORY_LIMIT"];
  const limitBytes = limit === undefined || limit === "" ? undefined : parseMemoryBudget(limit);
  if (limit && limitBytes === undefined)
    throw new SwarmRuntimeError(
      "invalid-request",
      `SWARMBOARD_WORKER_MEMORY_LIMIT="${limit}" is not a size with its unit, like 8GB or 512MiB.`,
    );
  return {
    availableBytes: availableMemoryBytes(),
    residentBytes: process.memoryUsage.rss(),
    ...(limitBytes === undefined ? {} : { limitBytes }),
  };
}

const mib = (bytes: number) => `${Math.round(bytes / 2 ** 20).toLocaleString("en-US")} MiB`;

/**
 * Refuses to load `modelPath` beside `loaded` (the paths of the models this worker holds, with their weights) when
 * its file and a quarter more for its pool do not fit the room; loads nothing and checks nothing when none is loaded.
 */
export function checkRoomForModel(modelPath: string, loaded: readonly string[], room: MemoryRoom): void {
  // A file that cannot be read is the load's to report (ModelLoadError, with what to do).
  const fileBytes = loaded.length === 0 ? undefined : statSync(modelPath, { throwIfNoEntry: false })?.size;
  if (fileBytes === undefined) return;
  const need = Math.ceil(fileBytes * (1 + poolShareOfFile));
  const underLimit = room.limitBytes === undefined ? Infinity : room.limitBytes - room.residentBytes;
  const free = Math.max(0, Math.min(room.availableBytes, underLimit));
  if (need <= free) return;
  const whose =
    room.limitBytes !== undefined && underLimit < room.availableBytes
      ? `of the worker's limit of ${mib(room.limitBytes)} (SWARMBOARD_WORKER_MEMORY_LIMIT), ${mib(room.residentBytes)} in use`
      : "the machine can still give";
  const held = loaded.map((p) => `${path.basename(p)} (${mib(statSync(p).size)})`).join(", ");
  throw new SwarmRuntimeError(
    "memory-full",
    `Not loading ${path.basename(modelPath)} beside ${held}: it needs about ${mib(need)} (its ${mib(fileBytes)} ` +
      `file and a quarter more for its KV pool and buffers) and ${mib(free)} is left ${whose}. Launch on the model ` +
      "already loaded, or stop its swarms and restart the worker (swarmboard serve --stop for the shared one) so " +
      "that this model loads alone.",
  );
}
