// Downloading a GGUF by Hugging Face URI (`hf:<user>/<repo>:<quant>`) or URL with node-llama-cpp's
// downloader: progress reported, resumable (a partial file is kept when cancelled), into a cache folder.
import os from "node:os";
import path from "node:path";
import { loadNodeLlamaCpp } from "./nodeLlamaCpp";

export interface PullProgress {
  readonly downloadedBytes: number;
  readonly totalBytes: number;
}

export interface PullOptions {
  readonly uri: string;
  /** Folder to download into; default `$XDG_CACHE_HOME/swarmboard/models` (or `~/.cache/...`). */
  readonly dir?: string;
  readonly onProgress?: (progress: PullProgress) => void;
  readonly signal?: AbortSignal;
  /** Give up when no byte arrives for this long (a refused, dropped or stalled connection); default: never. */
  readonly stallTimeoutMs?: number;
}

export function defaultModelCacheDir(): string {
  return path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "swarmboard", "models");
}

/** Downloads (or finds, when complete) the model and returns its path. */
export async function pullModel(options: PullOptions): Promise<string> {
  if (options.stallTimeoutMs === undefined) return download(options, options.signal);
  // The download is cancelled (its partial file kept) when no progress comes for stallTimeoutMs, counted from
  // when the library is loaded (loading it is not waiting on the network).
  await loadNodeLlamaCpp();
  const stalled = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stalled.signal]) : stalled.signal;
  let timer: NodeJS.Timeout | undefined;
  let rejectStall: (error: Error) => void = () => {};
  const stall = new Promise<never>((_, reject) => (rejectStall = reject));
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled.abort();
      rejectStall(
        new Error(
          `The download of ${options.uri} stalled: no data for ${options.stallTimeoutMs! / 1000} s (the connection ` +
            "was refused, dropped or went silent). The partial file is kept; pull again to resume it.",
        ),
      );
    }, options.stallTimeoutMs);
  };
  arm();
  try {
    return await Promise.race([
      download(
        {
          ...options,
          onProgress: (p) => {
            arm();
            options.onProgress?.(p);
          },
        },
        signal,
      ),
      stall,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function download(options: PullOptions, signal: AbortSignal | undefined): Promise<string> {
  const { createModelDownloader } = await loadNodeLlamaCpp();
  const downloader = await createModelDownloader({
    modelUri: options.uri,
    dirPath: options.dir ?? defaultModelCacheDir(),
    skipExisting: true,
    // Keep the partial file on cancel so the next pull resumes it.
    deleteTempFileOnCancel: false,
    ...(options.onProgress
      ? {
          onProgress: (s: { downloadedSize: number; totalSize: number }) =>
            options.onProgress!({ downloadedBytes: s.downloadedSize, totalBytes: s.totalSize }),
        }
      : {}),
  });
  const file = await downloader.download(signal ? { signal } : {});
  // node-llama-cpp's downloader resolves with the path even when cancelled: a partial file is not a model.
  if (signal?.aborted) {
    throw new Error(
      `The download of ${options.uri} was cancelled; the partial file is kept and the next pull resumes it.`,
    );
  }
  return file;
}
