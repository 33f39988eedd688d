// Loading the one model all agents share. Loading is checked step by step so that each way it can fail
// becomes a typed ModelLoadError that says which file, what is wrong with it and what to do.
import { open, stat } from "node:fs/promises";
import type { Llama, LlamaModel, Token } from "node-llama-cpp" with { "resolution-mode": "import" };
import type { KvCacheType, KvPlacement, ModelFacts } from "../protocol/runtime";
import { truncatedModelRefusal } from "./ggufExtent";
import { freeKvMemory, readPlacement, type KvMemory } from "./kvPlacement";
import type { GpuChoice, LlamaBuildKind, LoadedLlama } from "./loadLlama";
import { kvTypeBlockSize, readModelFacts } from "./modelFacts";
import { loadNodeLlamaCpp } from "./nodeLlamaCpp";
import { KvCacheTypeError, ModelLoadError } from "./runtimeErrors";

export interface LoadSwarmModelOptions {
  /** Absolute path of a GGUF file. */
  modelPath: string;
  /** CPU threads for decoding. Set it (1 or 2 on a small machine): the default collapses on a busy CPU. */
  threads: number;
  /** GPU to use; `false` (the default) runs on the CPU. */
  gpu?: GpuChoice;
  /**
   * Only the vocabulary and metadata (tokenizer, chat template, shapes), no weights: for a remote engine, which
   * renders and counts tokens here and computes them there. Such a model cannot create a context.
   */
  vocabOnly?: boolean;
}

/** What one KV cell costs at a KV cache type. */
export interface KvCellCost {
  /** ggml's name of the type ("F16", "Q8_0", ...). */
  readonly typeName: string;
  readonly bytesPerCell: number;
}

/** The model, loaded once by the runtime's owner; every swarm context of this process is created from it. */
export class SwarmModel {
  private unifiedProbe: Promise<boolean> | undefined;

  constructor(
    readonly llama: Llama,
    readonly model: LlamaModel,
    readonly facts: ModelFacts,
    readonly build: LlamaBuildKind,
    readonly threads: number,
    /** Why the runtime cannot share cells, when it cannot. */
    readonly notice: string | undefined,
    /** The CPU variant library ggml loaded ("haswell", "sse42", ...; "built in" for a single-CPU build). */
    readonly cpuVariant: string,
  ) {}

  tokenize(text: string): Token[] {
    return this.model.tokenize(text, false);
  }

  detokenize(tokens: readonly Token[]): string {
    return this.model.detokenize(tokens, false);
  }

  /**
   * Whether a context of this model really gets one unified KV pool. Asked of a tiny real context, because only
   * the loaded addon knows: a stock addon drops the option and `context.kvUnified` reports false.
   */
  supportsSharedCells(): Promise<boolean> {
    this.unifiedProbe ??= (async () => {
      const probe = await this.model.createContext({ sequences: 2, contextSize: 256, kvUnified: true, threads: 1 });
      try {
        return probe.kvUnified;
      } finally {
        await probe.dispose();
      }
    })();
    return this.unifiedProbe;
  }

  /**
   * A cell's cost at `kvCacheType` (default: the model's own, llama.cpp's F16). A quantised type needs head
   * dimensions that are whole blocks of it; a model whose are not gets an error that says so.
   */
  kvCellCost(kvCacheType?: KvCacheType): KvCellCost {
    if (kvCacheType === undefined) return { typeName: this.facts.kvType, bytesPerCell: this.facts.kvBytesPerCell };
    const typeName = kvCacheType.toUpperCase();
    const block = kvTypeBlockSize(typeName);
    const { keyHeadDim, valueHeadDim } = this.facts;
    if (keyHeadDim % block !== 0 || valueHeadDim % block !== 0) {
      throw new KvCacheTypeError(
        `KV cache type ${kvCacheType} stores ${block} values per block, and this model's attention heads have ` +
          `${keyHeadDim} (keys) and ${valueHeadDim} (values): llama.cpp cannot quantise them. Use kvCacheType f16.`,
      );
    }
    const facts = readModelFacts({
      path: this.facts.path,
      metadata: this.model.fileInfo.metadata,
      keyTypeName: typeName,
      valueTypeName: typeName,
      trainContextSize: this.facts.trainContextSize,
    });
    return { typeName, bytesPerCell: facts.kvBytesPerCell };
  }

  /** Where the model's layers and its KV cells live, and VRAM in use (read now). */
  placement(): Promise<KvPlacement> {
    return readPlacement(this.llama, this.model);
  }

  /** Free memory where new KV cells would go (RAM, or VRAM when the layers are offloaded). */
  async freeKvMemory(): Promise<KvMemory> {
    return freeKvMemory(this.llama, await this.placement());
  }

  async dispose(): Promise<void> {
    await this.model.dispose();
  }
}

/** Checks the file before llama.cpp sees it, so the common mistakes get a precise message. */
async function checkModelFile(modelPath: string): Promise<void> {
  const info = await stat(modelPath).catch((cause: NodeJS.ErrnoException) => {
    if (cause.code === "ENOENT" || cause.code === "ENOTDIR") {
      throw new ModelLoadError(
        "model-not-found",
        modelPath,
        `No model file at ${modelPath}. Set swarmboard.modelPath to an existing .gguf file.`,
        cause,
      );
    }
    throw new ModelLoadError(
      "model-unreadable",
      modelPath,
      `Cannot read ${modelPath} (${cause.code ?? cause.message}). Check the path and its permissions.`,
      cause,
    );
  });
  if (!info.isFile()) {
    throw new ModelLoadError(
      "model-unreadable",
      modelPath,
      `${modelPath} is not a file. Set swarmboard.modelPath to a .gguf file, not a folder.`,
    );
  }
  const magic = Buffer.alloc(4);
  try {
    const handle = await open(modelPath, "r");
    try {
      await handle.read(magic, 0, 4, 0);
    } finally {
      await handle.close();
    }
  } catch (cause) {
    throw new ModelLoadError(
      "model-unreadable",
      modelPath,
      `Cannot read ${modelPath}: ${(cause as Error).message}. Check its permissions.`,
      cause,
    );
  }
  if (magic.toString("latin1") !== "GGUF") {
    throw new ModelLoadError(
      "model-corrupt",
      modelPath,
      `${modelPath} is not a GGUF model (it does not start with "GGUF"). Pick a .gguf file, or download it again.`,
    );
  }
  // A file cut short: said so with both sizes, not as llama.cpp's read error (ggufExtent.ts).
  const { readGgufFileInfo } = await loadNodeLlamaCpp();
  const header = await readGgufFileInfo(modelPath, { readTensorInfo: true }).catch(() => undefined);
  const truncated = header === undefined ? undefined : await truncatedModelRefusal(modelPath, header);
  if (truncated !== undefined) throw new ModelLoadError("model-corrupt", modelPath, truncated);
}

/**
 * Loads a model on the Llama `llamaFor` gives for its GPU choice. The runtime's owner calls it once per (path, GPU,
 * threads, vocabulary-only) and keeps the handle (runtimeOwner.ts).
 */
export async function loadSwarmModel(
  options: LoadSwarmModelOptions,
  llamaFor: (gpu: GpuChoice) => Promise<LoadedLlama>,
): Promise<SwarmModel> {
  await checkModelFile(options.modelPath);
  const { llama, build, notice, cpuVariant } = await llamaFor(options.gpu ?? false);
  let model: LlamaModel;
  try {
    model = await llama.loadModel({ modelPath: options.modelPath, vocabOnly: options.vocabOnly === true });
  } catch (cause) {
    throw new ModelLoadError(
      "model-corrupt",
      options.modelPath,
      `llama.cpp could not load ${options.modelPath}: ${(cause as Error).message}. ` +
        "The file is damaged or truncated, or not a model llama.cpp supports; download it again or pick another.",
      cause,
    );
  }
  const { GgmlType } = await loadNodeLlamaCpp();
  try {
    const facts = readModelFacts({
      path: options.modelPath,
      metadata: model.fileInfo.metadata,
      keyTypeName: GgmlType[model.defaultContextKvCacheKeyType],
      valueTypeName: GgmlType[model.defaultContextKvCacheValueType],
      trainContextSize: model.trainContextSize,
    });
    return new SwarmModel(llama, model, facts, build, options.threads, notice, cpuVariant);
  } catch (cause) {
    await model.dispose();
    throw new ModelLoadError(
      "model-corrupt",
      options.modelPath,
      `${options.modelPath} loaded but its metadata is incomplete: ${(cause as Error).message}.`,
      cause,
    );
  }
}
