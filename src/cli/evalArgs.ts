// `swarmboard eval`'s command line (src/cli/evalCommand.ts runs it).
import type { GpuSetting, KvCacheType } from "../protocol/runtime";
import { positiveInt, readFlags, runtimeFlags, UsageError } from "./flagParsing";

/** `eval`: a task suite run with each agent count (src/cli/evalCommand.ts). */
export interface EvalOptions {
  command: "eval";
  /** Default examples/eval. */
  suite: string;
  /** Agent counts to compare; default 1 and 4. */
  agents: number[];
  /** Only these tasks (folder names). */
  tasks?: string[];
  model?: string;
  threads: number;
  kvCells?: number;
  budgetMs?: number;
  gpu?: GpuSetting;
  kvCacheType?: KvCacheType;
  /** The model runs free instead of along the forced trajectories. */
  free: boolean;
  /** Where the JSON report is written. */
  json?: string;
}

export function parseEval(argv: string[]): EvalOptions {
  const flags = ["--suite", "--agents", "--tasks", "--model", "--threads", "--kv-cells", "--budget-ms", "--json"];
  const f = readFlags(argv, new Set([...flags, "--gpu", "--kv-cache-type"]), new Set(["--free"]));
  const int = (flag: string) => (f.has(flag) ? positiveInt(flag, f.get(flag)!) : undefined);
  const list = (flag: string) =>
    f
      .get(flag)
      ?.split(",")
      .map((s) => s.trim());
  const agents = (list("--agents") ?? ["1", "4"]).map((n) => positiveInt("--agents", n));
  if (new Set(agents).size !== agents.length) throw new UsageError(`--agents lists a count twice: ${agents.join(",")}`);
  return {
    command: "eval",
    suite: f.get("--suite") ?? "examples/eval",
    agents,
    tasks: list("--tasks"),
    model: f.get("--model"),
    threads: int("--threads") ?? 2,
    kvCells: int("--kv-cells"),
    budgetMs: int("--budget-ms"),
    ...runtimeFlags(f),
    free: f.has("--free"),
    json: f.get("--json"),
  };
}
