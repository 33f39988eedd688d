// One HTTP(S) GET from the worker process (agents' commands run in a sandbox without network; this is the one
// controlled way out). Redirects are not followed here: the caller checks every hop's host first. The body is
// read up to a byte cap and a deadline; whatever arrived by then is kept and the result says why it was cut.
import http from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import zlib from "node:zlib";

export interface HttpGetOptions {
  /** Most bytes of the (decoded) body to keep. */
  readonly maxBytes: number;
  /** Epoch milliseconds by which the response must be in; what arrived by then is kept. */
  readonly deadline: number;
  readonly now: () => number;
  readonly signal?: AbortSignal;
}

export interface HttpResponse {
  readonly status: number;
  readonly statusText: string;
  /** The Location header of a redirect. */
  readonly location?: string;
  readonly contentType: string;
  readonly body: Buffer;
  /** Why the body is incomplete: the byte cap ("size") or the deadline ("time"). */
  readonly cut?: "size" | "time";
}

/** A fetch that got no answer at all: refused, unreachable, or no headers before the deadline. */
export class NoAnswerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NoAnswerError";
  }
}

/** The body as sent, or decompressed when the server compressed it anyway. */
function decodedStream(res: http.IncomingMessage): Readable {
  const encoding = (res.headers["content-encoding"] ?? "").toLowerCase();
  if (encoding === "gzip" || encoding === "x-gzip") return res.pipe(zlib.createGunzip());
  if (encoding === "deflate") return res.pipe(zlib.createInflate());
  if (encoding === "br") return res.pipe(zlib.createBrotliDecompress());
  return res;
}

export function httpGet(url: URL, options: HttpGetOptions): Promise<HttpResponse> {
  const get = url.protocol === "https:" ? https.get : http.get;
  return new Promise<HttpResponse>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let head: Omit<HttpResponse, "body" | "cut"> | undefined;
    let done = false;
    const settle = (outcome: { cut?: "size" | "time" } | { error: Error }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      request.destroy();
      if ("error" in outcome) reject(outcome.error);
      else if (head === undefined) reject(new NoAnswerError(`${url.host} sent no response`));
      else resolve({ ...head, body: Buffer.concat(chunks, size), ...(outcome.cut ? { cut: outcome.cut } : {}) });
    };
    const request = get(
      url,
      { headers: { "user-agent": "Swarmboard fetch_url", accept: "text/html, text/*;q=0.9, */*;q=0.5" } },
      (res) => {
        const location = res.headers.location;
        head = {
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? "",
          contentType: res.headers["content-type"] ?? "",
          ...(location !== undefined ? { location } : {}),
        };
        if (head.status >= 300 && head.status < 400) return settle({});
        const body = decodedStream(res);
        body.on("data", (chunk: Buffer) => {
          const room = options.maxBytes - size;
          chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
          size += Math.min(chunk.length, room);
          if (size >= options.maxBytes) settle({ cut: "size" });
        });
        body.on("end", () => settle({}));
        body.on("error", (error) => settle({ error }));
      },
    );
    request.on("error", (error) => settle({ error: new NoAnswerError(`${url.host}: ${error.message}`) }));
    const timer = setTimeout(
      () =>
        head === undefined
          ? settle({ error: new NoAnswerError(`no answer from ${url.host}`) })
          : settle({ cut: "time" }),
      Math.max(0, options.deadline - options.now()),
    );
    const onAbort = () => settle({ error: new Error("the fetch was stopped (the agent or the swarm stopped)") });
    options.signal?.addEventListener("abort", onAbort);
    if (options.signal?.aborted) onAbort();
  });
}
