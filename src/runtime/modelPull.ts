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
}

export function defaultModelCacheDir(): string {
  return path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "swarmboard", "models");
}

/** Downloads (or finds, when complete) the model and returns its path. */
export async function pullModel(options: PullOptions): Promise<string> {
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
  const file = await downloader.download(options.signal ? { signal: options.signal } : {});
  // node-llama-cpp's downloader resolves with the path even when cancelled: a partial file is not a model.
  if (options.signal?.aborted) {
    throw new Error(
      `The download of ${options.uri} was cancelled; the partial file is kept and the next pull resumes it.`,
    );
  }
  return file;
}
