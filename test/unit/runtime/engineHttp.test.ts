// The remote engine's HTTP layer against a real HTTP server on loopback that answers as a busy engine would:
// 503/429 retried with backoff (Retry-After honoured), a refusal after the retries named with its status, a
// lost connection turned into `engine-unreachable`, and server-sent events read across arbitrary chunk borders.
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { z } from "zod";
import { EngineHttp, retryDelayMs } from "../../../src/runtime/remote/engineHttp";
import { sseData } from "../../../src/runtime/remote/sseEvents";

async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

const ok = z.object({ ok: z.literal(true) });

describe("remote engine: HTTP", () => {
  it("retries a busy answer (503, 429) and honours Retry-After", async () => {
    let calls = 0;
    const { server, url } = await serve((_req, res) => {
      calls++;
      if (calls <= 2) {
        res.writeHead(calls === 1 ? 503 : 429, { "retry-after": "0" }).end("busy");
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
    try {
      const http = new EngineHttp({ url, timeoutMs: 5000, busyRetries: 3 });
      assert.deepEqual(await http.getJson("/health", ok), { ok: true });
      assert.equal(calls, 3);
      assert.equal(http.retries, 2);
    } finally {
      server.close();
    }
  });

  it("gives up after its retries with the status and what the engine said", async () => {
    const { server, url } = await serve(
      (_req, res) => void res.writeHead(503, { "retry-after": "0" }).end("loading model"),
    );
    try {
      const http = new EngineHttp({ url, timeoutMs: 5000, busyRetries: 1 });
      await assert.rejects(http.getJson("/health", ok), (error: Error & { code?: string }) => {
        assert.equal(error.code, "engine-refused");
        assert.match(error.message, /answered 503: loading model/);
        return true;
      });
    } finally {
      server.close();
    }
  });

  it("says where to put the key when the engine wants one", async () => {
    const { server, url } = await serve((req, res) => {
      if (req.headers.authorization !== "Bearer right") res.writeHead(401).end("invalid api key");
      else res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
    try {
      await assert.rejects(
        new EngineHttp({ url, timeoutMs: 5000, busyRetries: 0, apiKey: "wrong" }).getJson("/x", ok),
        /Set Engine API Key/,
      );
      assert.deepEqual(
        await new EngineHttp({ url, timeoutMs: 5000, busyRetries: 0, apiKey: "right" }).getJson("/x", ok),
        { ok: true },
      );
    } finally {
      server.close();
    }
  });

  it("turns a refused connection into engine-unreachable", async () => {
    const { server, url } = await serve(() => undefined);
    await new Promise((resolve) => server.close(resolve));
    await assert.rejects(
      new EngineHttp({ url, timeoutMs: 5000, busyRetries: 0 }).getJson("/health", ok),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, "engine-unreachable");
        return true;
      },
    );
  });

  it("waits 0.5 s, 1 s, 2 s ... up to 8 s without Retry-After, and at most a minute with it", () => {
    assert.deepEqual(
      [0, 1, 2, 3, 4, 9].map((attempt) => retryDelayMs(null, attempt)),
      [500, 1000, 2000, 4000, 8000, 8000],
    );
    assert.equal(retryDelayMs("3", 0), 3000);
    assert.equal(retryDelayMs("600", 0), 60_000);
  });

  it("reads server-sent events split anywhere, skipping pings and [DONE]", async () => {
    const text = 'data: {"a":1}\n\n: ping\n\ndata: {"b":\ndata: 2}\n\ndata: [DONE]\n\n';
    const bytes = new TextEncoder().encode(text);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 3) controller.enqueue(bytes.slice(at, at + 3));
        controller.close();
      },
    });
    const events: string[] = [];
    for await (const data of sseData(body)) events.push(data);
    assert.deepEqual(events, ['{"a":1}', '{"b":\n2}']);
  });
});
