// Model files for the CLI and the worker's RPC: pulling one (where it goes and its progress), and whether one can
// run agents that generate freely (its template calls tools), judged before its weights load.
import { pullModel, toolCallingRefusal, type PullProgress } from "../runtime/modelServices";
import { checkDownloadedGguf, defaultPullTimeoutSeconds, probeModelUrl } from "./modelDownloadCheck";

export type { PullProgress };

export interface PullChecks {
  /** Seconds without a byte from the server before the pull is given up (default 60). */
  readonly timeoutSeconds?: number;
  /** The size the source announced (a catalogue entry's download): a file under half of it is refused. */
  readonly expectedBytes?: number;
}

/**
 * Downloads a GGUF by Hugging Face URI or URL (resumable) and returns its path, once it is checked to be one: a
 * URL's server is asked for the first bytes before the download (refused, silent or not a GGUF: an error within
 * the timeout), a stalled download is given up, and the file's magic and size are checked before success.
 */
export async function pullModelFile(
  uri: string,
  dir: string | undefined,
  onProgress: (p: PullProgress) => void,
  signal?: AbortSignal,
  checks: PullChecks = {},
): Promise<string> {
  const timeoutSeconds = checks.timeoutSeconds ?? defaultPullTimeoutSeconds;
  if (/^https?:\/\//i.test(uri)) await probeModelUrl(uri, timeoutSeconds);
  const file = await pullModel({
    uri,
    ...(dir ? { dir } : {}),
    onProgress,
    ...(signal ? { signal } : {}),
    stallTimeoutMs: timeoutSeconds * 1000,
  });
  await checkDownloadedGguf(file, checks.expectedBytes);
  return file;
}

/**
 * Why the model cannot run agents that generate freely, or undefined when it can. A scripted run (forced tokens,
 * tests and demos) needs no tool calling of the model's own, so callers skip this check for it.
 */
export function modelToolCallingRefusal(modelPath: string): Promise<string | undefined> {
  return toolCallingRefusal(modelPath);
}
