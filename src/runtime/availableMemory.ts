// What memory the machine can still give, read the same way for the budget (local/workerMemory.ts) and for the
// check a second model's load goes through (modelRoom.ts).
import { readFileSync } from "node:fs";
import { freemem } from "node:os";

/** Memory the machine can still give: Linux's MemAvailable (page cache it can drop included), else free memory. */
export function availableMemoryBytes(): number {
  try {
    const line = readFileSync("/proc/meminfo", "utf8")
      .split("\n")
      .find((l) => l.startsWith("MemAvailable:"));
    const kib = Number(line?.split(/\s+/)[1]);
    if (Number.isFinite(kib)) return kib * 1024;
  } catch {
    // Not Linux: the OS's free memory is the nearest figure.
  }
  return freemem();
}
