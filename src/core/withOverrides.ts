// A resumed swarm continues from the inputs it saved; what the resuming surface gives now (a moved model, a new
// API key, this terminal's answer timeout) wins field by field. One rule for every field, so a new launch knob
// needs no line here.

/** `saved` with every field of `overrides` that is defined in its place (an absent or undefined field keeps the saved one). */
export function withOverrides<T extends object>(saved: T, overrides: Partial<T>): T {
  const given = Object.entries(overrides).filter(([, value]) => value !== undefined);
  return { ...saved, ...(Object.fromEntries(given) as Partial<T>) };
}
