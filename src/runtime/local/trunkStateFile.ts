// A trunk saved to disk, so that a restarted worker does not decode it again: llama.cpp's sequence state
// (node-llama-cpp's saveStateToFile) in `<file>.kv`, and beside it, in `<file>`, a header that says what it was
// made from (model file, runtime build, KV type, tokens) with the state's size and SHA-256. llama.cpp trusts a
// state file blindly (one from another model can crash the process), so a restore checks every field first and
// refuses anything that does not match with a note saying why; the caller then decodes the trunk as usual.
import { createHash } from "node:crypto";
import { readFile, rename, stat, writeFile } from "node:fs/promises";
import type { Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import { trunkStateHeaderSchema, type TrunkStateHeader } from "../../protocol/trunkState";
import type { SwarmModel } from "../loadModel";
import type { SwarmSequence } from "./swarmSequence";
import { commonPrefixLength } from "../trunkTokens";

export type TrunkRestore =
  { readonly restored: true; readonly restoredTokens: number } | { readonly restored: false; readonly note: string };

async function sha256Of(file: string): Promise<string> {
  return createHash("sha256")
    .update(await readFile(file))
    .digest("hex");
}

/** What the cells depend on besides the tokens: the model file, the runtime build, the KV type. */
async function originOf(
  model: SwarmModel,
  kvType: string,
): Promise<Omit<TrunkStateHeader, "tokens" | "stateBytes" | "stateSha256">> {
  const file = await stat(model.facts.path);
  const gpu = model.llama.gpu === false ? "cpu" : model.llama.gpu;
  return {
    format: 1,
    model: { path: model.facts.path, bytes: file.size, mtimeMs: file.mtimeMs },
    build: `${model.build}/${model.cpuVariant}/${gpu}`,
    kvType,
  };
}

/** Saves the trunk's decoded cells (not its pending token) to `file` and `file`.kv. */
export async function saveTrunkState(trunk: SwarmSequence, kvType: string, file: string): Promise<TrunkStateHeader> {
  const stateFile = `${file}.kv`;
  const { fileSize } = await trunk.sequence.saveStateToFile(stateFile);
  const header: TrunkStateHeader = {
    ...(await originOf(trunk.shared.model, kvType)),
    tokens: [...trunk.sequence.contextTokens],
    stateBytes: fileSize,
    stateSha256: await sha256Of(stateFile),
  };
  await writeFile(`${file}.partial`, JSON.stringify(header));
  await rename(`${file}.partial`, file);
  return header;
}

/** Why the saved header cannot serve this trunk, or undefined when it can. */
async function mismatch(header: TrunkStateHeader, trunk: SwarmSequence, kvType: string, tokens: readonly Token[]) {
  const here = await originOf(trunk.shared.model, kvType);
  if (header.model.path !== here.model.path) return `it was made with another model (${header.model.path})`;
  if (header.model.bytes !== here.model.bytes || header.model.mtimeMs !== here.model.mtimeMs)
    return "the model file changed since it was saved";
  if (header.build !== here.build) return `it was made by another runtime build (${header.build}, here ${here.build})`;
  if (header.kvType !== kvType) return `it holds ${header.kvType} cells and this pool is ${kvType}`;
  // A relaunch changes the trunk's tail (goal, roster): the shared start is restored and the rest decoded.
  if (commonPrefixLength(header.tokens as Token[], tokens) <= 1)
    return "it shares no tokens with this trunk past the first";
  return undefined;
}

/**
 * Loads the saved trunk into the empty `trunk` when the header matches the model, build and KV type and its tokens
 * start as `tokens` do (the trunk about to be decoded: the caller keeps the shared start and erases the rest) and the state file is whole; else says why not and leaves the trunk empty.
 */
export async function restoreTrunkState(
  trunk: SwarmSequence,
  kvType: string,
  file: string,
  tokens: readonly Token[],
): Promise<TrunkRestore> {
  const refuse = (why: string): TrunkRestore => ({ restored: false, note: `trunk state ${file} not used: ${why}` });
  if (trunk.sequence.nextTokenIndex !== 0) return refuse("the trunk already holds tokens");
  let header: TrunkStateHeader;
  try {
    const parsed = trunkStateHeaderSchema.safeParse(JSON.parse(await readFile(file, "utf8")));
    if (!parsed.success) return refuse("its header is not a trunk state header");
    header = parsed.data;
  } catch (error) {
    return refuse(`its header cannot be read (${(error as Error).message})`);
  }
  const why = await mismatch(header, trunk, kvType, tokens);
  if (why !== undefined) return refuse(why);
  const stateFile = `${file}.kv`;
  const size = (await stat(stateFile).catch(() => undefined))?.size;
  if (size !== header.stateBytes)
    return refuse(`the state file is ${size ?? "missing"}, not ${header.stateBytes} bytes`);
  if ((await sha256Of(stateFile)) !== header.stateSha256) return refuse("the state file's SHA-256 does not match");
  const count = header.tokens.length;
  const { admission } = trunk.shared;
  if (!admission.tryTake(trunk.id, count)) return refuse(`the pool has no room for its ${count} cells`);
  try {
    await trunk.sequence.loadStateFromFile(stateFile, { acceptRisk: true });
    const loaded = trunk.sequence.contextTokens;
    if (loaded.length !== count || loaded.some((token, i) => token !== header.tokens[i]))
      throw new Error(`it holds ${loaded.length} tokens that differ from its header's`);
  } catch (error) {
    await trunk.sequence.clearHistory();
    admission.giveBack(trunk.id, count);
    return refuse(`llama.cpp could not load it (${(error as Error).message})`);
  }
  admission.commit(trunk.id, count);
  trunk.pending = [];
  return { restored: true, restoredTokens: count };
}
