// The pieces every subcommand's flags are read with: flags with values, switches, numbers and fixed choices,
// each refused with a message that says what was expected.
import { engineSettingsSchema, type EngineSettings } from "../protocol/engine";
import { gpuChoiceSchema, kvCacheTypeSchema, type GpuSetting, type KvCacheType } from "../protocol/runtime";

export class UsageError extends Error {
  override name = "UsageError";
}

export function positiveInt(flag: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} expects a positive whole number, got "${value}".`);
  return n;
}

/** A number of MiB from 0 up (fractions allowed). */
export function mebibytes(flag: string, value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0)
    throw new UsageError(`${flag} expects a number of MiB from 0 up, got "${value}".`);
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

/** The environment variable the CLI reads a remote engine's API key from (never a flag: flags land in shell history). */
export const engineKeyVariable = "SWARMBOARD_ENGINE_API_KEY";

/** --engine, --engine-url and --engine-model: which engine computes the tokens (`run`; the key from the environment). */
export function engineFlags(f: Map<string, string>, env: NodeJS.ProcessEnv = process.env): { engine?: EngineSettings } {
  const kind = oneOf("--engine", f.get("--engine"), ["local", "remote"] as const);
  const url = f.get("--engine-url");
  if (kind === undefined && url === undefined) return {};
  if (kind === "local") {
    if (url !== undefined) throw new UsageError("--engine-url is for --engine remote.");
    return { engine: { kind: "local" } };
  }
  if (url === undefined) throw new UsageError("--engine remote needs --engine-url <http://host:port> of the server.");
  const parsed = engineSettingsSchema.safeParse({
    kind: "remote",
    url,
    model: f.get("--engine-model") ?? "",
    dialect:
      oneOf("--engine-dialect", f.get("--engine-dialect"), ["auto", "llama-server", "openai"] as const) ?? "auto",
    ...(env[engineKeyVariable] ? { apiKey: env[engineKeyVariable] } : {}),
  });
  if (!parsed.success) throw new UsageError(`--engine-url ${url}: ${parsed.error.issues[0]?.message ?? "not a URL"}.`);
  return { engine: parsed.data };
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

/** The environment variable that makes `run`, `watch` and `mcp` run their swarms in process (0) without --no-server. */
export const serverVariable = "SWARMBOARD_SERVER";

/**
 * --server and --no-server (`run`, `watch`, `mcp`): whether the swarms run on the user's shared worker (one model
 * loaded for every client, the default) or in this process; without either, $SWARMBOARD_SERVER (1/true or 0/false).
 */
export function serverFlag(f: Map<string, string>, env: NodeJS.ProcessEnv = process.env): boolean {
  if (f.has("--server") && f.has("--no-server")) throw new UsageError("give --server or --no-server, not both.");
  if (f.has("--no-server")) return false;
  if (f.has("--server")) return true;
  const asked = env[serverVariable];
  return !(asked === "0" || asked === "false");
}
