// The extension's settings (package.json `contributes.configuration`), as one schema. The host reads them
// from VS Code and parses them here, so a hand-edited settings.json with a wrong type is reported by name
// instead of reaching the worker. Keep the defaults equal to package.json's (a unit test checks).
import { z } from "zod";
import { gpuChoiceSchema, kvCacheTypeSchema } from "./runtime";
import { askUserTimeoutSchema, defaultAskUserTimeoutSeconds } from "./steering";
import type { WebSettings } from "./webTools";
import { sparseThresholdSchema } from "./recipe";

export const commandPolicySchema = z.object({
  /** Command prefixes that run without asking. */
  allow: z.array(z.string()).default([]),
  /** Command prefixes that need the user's approval each time. */
  ask: z.array(z.string()).default([]),
  /** Command prefixes that are always refused. */
  deny: z.array(z.string()).default([]),
});
export type CommandPolicy = z.infer<typeof commandPolicySchema>;

const byteUnits: Readonly<Record<string, number>> = {
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

/** How a memory budget is written, for the messages that refuse one. */
export const memoryBudgetForm = "a size with its unit, like 6GB, 6GiB or 512MiB";

/**
 * The bytes of a memory budget ("6GB", "6 GiB", "512MiB"; KB..TB are powers of 1000, KiB..TiB of 1024), or
 * undefined for anything else: a bare number is refused, since MB and MiB differ by 5% and GB and GiB by 7%.
 */
export function parseMemoryBudget(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]i?b)\s*$/i.exec(text);
  if (!match) return undefined;
  const bytes = Math.floor(Number(match[1]) * byteUnits[match[2]!.toLowerCase()]!);
  return bytes > 0 ? bytes : undefined;
}

/** Most memory the swarm's KV cache may take (its cells at the KV type's cost), as the person wrote it. */
export const memoryBudgetSchema = z
  .string()
  .refine((text) => parseMemoryBudget(text) !== undefined, { error: `expected ${memoryBudgetForm}` });

/** Most swarms a pool may be sized for (llama.cpp's sequences bound it long before memory would). */
export const maxPoolSwarms = 16;
/** A swarm's cap of cells on a pool it shares: at least one llama.cpp block, so that its trunk has room. */
export const poolShareCellsSchema = z.number().int().min(256);
/** How many swarms a new pool is sized for (its cells count that many swarms' sequences). */
export const poolSwarmsSchema = z.number().int().min(1).max(maxPoolSwarms);

export const settingsSchema = z.object({
  /** Absolute path of the GGUF model; empty until the user picks one. */
  modelPath: z.string().default(""),
  maxAgents: z.number().int().min(1).max(64).default(8),
  /** 0 sizes the pool from the free memory where the KV cache lives; a number caps it (at least 256). */
  kvCellsBudget: z
    .union([z.literal(0), z.number().int().min(256)], { error: "expected 0 (size from free memory) or 256 or more" })
    .default(0),
  /** Where the model runs; "auto" takes the machine's GPU when a build for it loads, else the CPU. */
  gpu: gpuChoiceSchema.default("auto"),
  /** The KV cache's element type; q8_0 fits about twice the cells of f16 in the same memory. */
  kvCacheType: kvCacheTypeSchema.default("f16"),
  /** 0 lets the runtime choose. */
  threads: z.number().int().min(0).default(0),
  /** Who computes the tokens: this machine's runtime, or a remote serving engine (llama-server) at engineUrl. */
  engine: z.enum(["local", "remote"]).default("local"),
  /** The remote engine's base URL, e.g. http://127.0.0.1:8080 (its API key is in SecretStorage, not here). */
  engineUrl: z.string().default(""),
  /** The model's name on the remote engine; empty takes the one it serves. */
  engineModel: z.string().default(""),
  /** How to speak to it: auto (llama-server's API when it has one), llama-server, openai (vLLM, SGLang). */
  engineDialect: z.enum(["auto", "llama-server", "openai"]).default("auto"),
  commandPolicy: commandPolicySchema.default({
    allow: ["git status", "git diff", "git log", "ls", "cat", "npm test"],
    ask: [],
    deny: ["rm -rf", "curl", "wget"],
  }),
  /** Show the swarms' findings at the lines they point at, in open editors. */
  showFindingsInEditor: z.boolean().default(true),
  /** Put the repository's agent-rules files (AGENTS.md, CLAUDE.md, ...) into the trunk as its conventions. */
  agentRules: z.boolean().default(true),
  /** Hosts agents' fetch_url reads without asking (host or *.domain: ports 80/443 only; host:port); others ask. */
  webAllowedHosts: z.array(z.string().min(1)).default([]),
  /** Most bytes of one web response fetch_url or web_search reads. */
  webFetchMaxBytes: z.number().int().min(1024).default(2_000_000),
  /** Most milliseconds one fetch (with its redirects) may take. */
  webFetchTimeoutMs: z.number().int().min(100).default(20_000),
  /** Characters of page text in one fetch_url reply (agents read on with an offset). */
  webPageChars: z.number().int().min(200).default(6000),
  /** A SearXNG-style JSON search endpoint for web_search; empty (the default) turns web_search off. */
  webSearchEndpoint: z.string().default(""),
  /** Seconds an agent's ask_user question waits for your answer; 0: nobody answers, agents decide alone. */
  askUserTimeoutSeconds: askUserTimeoutSchema.default(defaultAskUserTimeoutSeconds),
  /** Writers' worktrees are sparse above this many MiB per checkout; null: the recipe's threshold, else 128. */
  sparseCheckoutAboveMiB: sparseThresholdSchema.nullable().default(null),
  /** Attach to the user's shared worker (one model for every window; a reload leaves swarms running); off: private. */
  sharedWorker: z.boolean().default(true),
  /** Most memory the swarm's KV cache may take ("6GB"); empty: sized from free memory (and kvCellsBudget). */
  memoryBudget: z.union([z.literal(""), memoryBudgetSchema]).default(""),
  /** Most KV cells a swarm may take of a pool it shares; 0: a fair share of the pool among its swarms. */
  poolShareCells: z
    .union([z.literal(0), poolShareCellsSchema], { error: "expected 0 (a fair share) or 256 or more" })
    .default(0),
  /** How many swarms a new pool is sized for; each gets a fair share of it unless poolShareCells says otherwise. */
  poolSwarms: poolSwarmsSchema.default(1),
});
export type Settings = z.infer<typeof settingsSchema>;

/** The settings' keys, without the `swarmboard.` section prefix. */
export const settingKeys = [
  "modelPath",
  "maxAgents",
  "kvCellsBudget",
  "gpu",
  "kvCacheType",
  "threads",
  "engine",
  "engineUrl",
  "engineModel",
  "engineDialect",
  "commandPolicy",
  "showFindingsInEditor",
  "agentRules",
  "webAllowedHosts",
  "webFetchMaxBytes",
  "webFetchTimeoutMs",
  "webPageChars",
  "webSearchEndpoint",
  "askUserTimeoutSeconds",
  "sparseCheckoutAboveMiB",
  "sharedWorker",
  "memoryBudget",
  "poolShareCells",
  "poolSwarms",
] as const;

/** The web settings as a swarm's start request carries them. */
export function webSettingsOf(settings: Settings): WebSettings {
  return {
    allowedHosts: settings.webAllowedHosts,
    maxBytes: settings.webFetchMaxBytes,
    timeoutMs: settings.webFetchTimeoutMs,
    pageChars: settings.webPageChars,
    searchEndpoint: settings.webSearchEndpoint,
  };
}

export type SettingsResult = { ok: true; settings: Settings } | { ok: false; problems: string[] };

/** Parses raw values (as read from the configuration) and names each bad setting with what to do. */
export function parseSettings(raw: Partial<Record<(typeof settingKeys)[number], unknown>>): SettingsResult {
  const parsed = settingsSchema.safeParse(raw);
  if (parsed.success) return { ok: true, settings: parsed.data };
  const problems = parsed.error.issues.map((issue) => {
    const key = issue.path.map(String).join(".");
    return `swarmboard.${key}: ${issue.message}. Fix it in your settings (or remove it to use the default).`;
  });
  return { ok: false, problems };
}
