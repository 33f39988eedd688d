// Bytes in binary units: the one place that steps a byte count up through KiB, MiB, GiB, TiB. Callers round and
// label as their line needs (a catalogue size, a pool's origin, a memory verdict).

/** `bytes` as a value below 1024 and the index of its unit (0 = bytes ... 4 = TiB). */
export function scaleBytes(bytes: number): { value: number; unit: number } {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    unit++;
  }
  return { value, unit };
}

export const binaryUnitNames = ["B", "KiB", "MiB", "GiB", "TiB"] as const;
