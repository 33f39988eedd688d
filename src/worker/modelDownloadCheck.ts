// What a model download must pass before it is reported as a model: a URL's server is asked for the file's first
// bytes before the download starts (a refused, dropped or silent connection is an error within the timeout, and
// a file that is not a GGUF is refused before gigabytes are fetched), and the downloaded file is checked for the
// GGUF magic and a plausible size (a file that fails is removed, never left in the cache as if it were a model).
import { open, rm, stat } from "node:fs/promises";

/** The four bytes every GGUF file starts with. */
const ggufMagic = "GGUF";
/** Magic, version, tensor count and metadata count: no GGUF file is shorter. */
const ggufHeaderBytes = 24;
/** Seconds without a byte from the server before a download is given up, when no --timeout says otherwise. */
export const defaultPullTimeoutSeconds = 60;

export class ModelDownloadError extends Error {
  override name = "ModelDownloadError";
}

function startOf(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.subarray(0, 8)).toString("latin1");
  return JSON.stringify(text.replace(/[^\x20-\x7e]/g, "."));
}

function connectionProblem(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === "ECONNREFUSED") return "the connection was refused";
  if (cause?.code === "ECONNRESET" || cause?.code === "UND_ERR_SOCKET") return "the connection was dropped";
  if (cause?.code === "ENOTFOUND" || cause?.code === "EAI_AGAIN") return "the host name does not resolve";
  return cause?.message ?? cause?.code ?? (error as Error).message;
}

/**
 * Asks a URL's server for the file's first bytes (a range request) within `timeoutSeconds`: a refused, dropped or
 * silent connection, an HTTP error, or a file that does not start with the GGUF magic is a ModelDownloadError.
 */
export async function probeModelUrl(url: string, timeoutSeconds: number): Promise<void> {
  const where = new URL(url).host;
  const timeout = `no answer from ${where} in ${timeoutSeconds} s (--timeout ${timeoutSeconds}): the connection stalled`;
  const signal = AbortSignal.timeout(timeoutSeconds * 1000);
  const timedOut = () => signal.aborted;
  let response: Response;
  try {
    response = await fetch(url, { headers: { Range: `bytes=0-${ggufHeaderBytes - 1}` }, signal });
  } catch (error) {
    throw new ModelDownloadError(
      timedOut()
        ? `${url}: ${timeout}.`
        : `${url}: ${connectionProblem(error)} (${where}). Check the URL and the network.`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new ModelDownloadError(`${url}: the server answered HTTP ${response.status} ${response.statusText}.`);
  }
  let first: Uint8Array;
  try {
    first = await readFirstBytes(response, 4);
  } catch (error) {
    throw new ModelDownloadError(
      timedOut()
        ? `${url}: ${timeout} while sending the file.`
        : `${url}: ${connectionProblem(error)} while sending the file.`,
    );
  }
  if (Buffer.from(first.subarray(0, 4)).toString("latin1") !== ggufMagic)
    throw new ModelDownloadError(
      `${url} is not a GGUF model: it starts with ${startOf(first)}, not "GGUF". Give a .gguf file's URL (or a name from \`swarmboard model pull --list\`).`,
    );
}

async function readFirstBytes(response: Response, count: number): Promise<Uint8Array> {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let length = 0;
  while (length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.length;
  }
  await reader.cancel().catch(() => {});
  return Buffer.concat(chunks);
}

/**
 * The downloaded file starts with the GGUF magic and is not shorter than a GGUF header nor than half the size the
 * source announced; otherwise it is removed and a ModelDownloadError says why.
 */
export async function checkDownloadedGguf(file: string, expectedBytes?: number): Promise<void> {
  const { size } = await stat(file);
  const handle = await open(file, "r");
  const head = new Uint8Array(8);
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  const problem =
    Buffer.from(head.subarray(0, 4)).toString("latin1") !== ggufMagic
      ? `it starts with ${startOf(head.subarray(0, Math.min(size, 8)))}, not "GGUF"`
      : size < ggufHeaderBytes
        ? `it is ${size} bytes, shorter than a GGUF header`
        : expectedBytes !== undefined && size < expectedBytes / 2
          ? `it is ${size} bytes where about ${expectedBytes} were expected`
          : undefined;
  if (problem === undefined) return;
  await rm(file, { force: true });
  throw new ModelDownloadError(`The download is not a GGUF model (${problem}); ${file} was removed.`);
}
