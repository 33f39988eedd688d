// Model files for the CLI and the worker's RPC: pulling one (where it goes and its progress), and whether one can
// run agents that generate freely (its template calls tools), judged before its weights load.
import { pullModel, type PullProgress } from "../runtime/modelPull";
import { toolCallingRefusal } from "../runtime/toolCallingSupport";

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

/**
 * Why the model cannot run agents that generate freely, or undefined when it can. A scripted run (forced tokens,
 * tests and demos) needs no tool calling of the model's own, so callers skip this check for it.
 */
export function modelToolCallingRefusal(modelPath: string): Promise<string | undefined> {
  return toolCallingRefusal(modelPath);
}
