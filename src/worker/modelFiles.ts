// Pulling a model for the CLI (the host asks the worker over RPC): where it goes and its progress.
import { pullModel, type PullProgress } from "../runtime/modelPull";

export type { PullProgress };

/** Downloads a GGUF by Hugging Face URI or URL (resumable) and returns its path. */
export function pullModelFile(
  uri: string,
  dir: string | undefined,
  onProgress: (p: PullProgress) => void,
  signal?: AbortSignal,
): Promise<string> {
  return pullModel({ uri, ...(dir ? { dir } : {}), onProgress, ...(signal ? { signal } : {}) });
}
