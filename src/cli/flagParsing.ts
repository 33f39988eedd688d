// The pieces every subcommand's flags are read with: flags with values, switches, numbers and fixed choices,
// each refused with a message that says what was expected.
import { gpuChoiceSchema, kvCacheTypeSchema, type GpuSetting, type KvCacheType } from "../protocol/runtime";

export class UsageError extends Error {
  override name = "UsageError";
}

export function positiveInt(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} expects a positive whole number, got "${value}".`);
  return n;
}

/** The value of a flag with a fixed set of values, or a message that lists them. */
export function oneOf<T extends string>(flag: string, value: string | undefined, options: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(options as readonly string[]).includes(value))
    throw new UsageError(`${flag} expects one of ${options.join(", ")}; got "${value}".`);
  return value as T;
}

/** --gpu and --kv-cache-type, shared by `run` and `mcp`. */
export function runtimeFlags(f: Map<string, string>): { gpu?: GpuSetting; kvCacheType?: KvCacheType } {
  const gpu = oneOf("--gpu", f.get("--gpu"), gpuChoiceSchema.options);
  const kvCacheType = oneOf("--kv-cache-type", f.get("--kv-cache-type"), kvCacheTypeSchema.options);
  return { ...(gpu ? { gpu } : {}), ...(kvCacheType ? { kvCacheType } : {}) };
}

export function readFlags(argv: string[], flags: Set<string>, switches: Set<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (switches.has(arg)) {
      out.set(arg, "true");
    } else if (flags.has(arg)) {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith("--")) throw new UsageError(`${arg} expects a value.`);
      out.set(arg, value);
      i++;
    } else {
      throw new UsageError(`unknown option "${arg}".`);
    }
  }
  return out;
}
