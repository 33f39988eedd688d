import assert from "node:assert/strict";
import { z } from "zod";
import { defineMethod, type Envelope } from "../../../src/protocol/envelope";
import { pingMethod, workerReadyNotification } from "../../../src/protocol/workerRpc";
import { HandlerError, RpcError, RpcPeer, type ProtocolViolation } from "../../../src/core/rpc/rpcPeer";
import { createInProcessTransportPair, type Transport } from "../../../src/core/rpc/transport";

interface Ends {
  client: RpcPeer;
  server: RpcPeer;
  clientTransport: Transport;
  serverTransport: Transport;
  violations: { client: ProtocolViolation[]; server: ProtocolViolation[] };
}

function connect(): Ends {
  const [clientTransport, serverTransport] = createInProcessTransportPair();
  const violations = { client: [] as ProtocolViolation[], server: [] as ProtocolViolation[] };
  const client = new RpcPeer(clientTransport, { onViolation: (v) => violations.client.push(v) });
  const server = new RpcPeer(serverTransport, { onViolation: (v) => violations.server.push(v) });
  return { client, server, clientTransport, serverTransport, violations };
}

/** Resolves with the next message the other side sends to `transport`. */
function nextMessage(transport: Transport): Promise<Envelope> {
  return new Promise((resolve) => {
    const sub = transport.onMessage((m) => {
      sub.dispose();
      resolve(m as Envelope);
    });
  });
}

const pong = { version: "1.2.3", pid: 42, node: "v20.0.0" };

describe("RpcPeer over the in-process transport pair", () => {
  it("answers a request with its handler's result", async () => {
    const { client, server } = connect();
    server.handle(pingMethod, ({ nonce }) => ({ nonce, ...pong }));
    assert.deepEqual(await client.request(pingMethod, { nonce: "n1" }), { nonce: "n1", ...pong });
  });

  it("carries a handler's error as data, with its code", async () => {
    const { client, server } = connect();
    server.handle(pingMethod, () => {
      throw new HandlerError("model-not-found", "No model at /x.gguf; pick one with Select Model.");
    });
    await assert.rejects(client.request(pingMethod, { nonce: "n" }), (err: unknown) => {
      assert.ok(err instanceof RpcError);
      assert.equal(err.error.code, "model-not-found");
      assert.match(err.message, /^model-not-found: No model at/);
      return true;
    });
  });

  it("reports an unexpected exception in a handler as `internal`", async () => {
    const { client, server } = connect();
    server.handle(pingMethod, () => {
      throw new Error("boom");
    });
    await assert.rejects(client.request(pingMethod, { nonce: "n" }), { name: "RpcError", message: "internal: boom" });
  });

  it("rejects params that fail their schema with `invalid-params` and reports a violation", async () => {
    const { server, clientTransport, violations } = connect();
    let called = false;
    server.handle(pingMethod, ({ nonce }) => {
      called = true;
      return { nonce, ...pong };
    });
    const answer = nextMessage(clientTransport);
    clientTransport.send({ kind: "request", id: 7, method: "ping", params: { nonce: 5 } });
    const response = await answer;
    assert.equal(response.kind, "response");
    assert.ok(response.kind === "response" && !response.ok);
    assert.equal(response.error.code, "invalid-params");
    assert.equal(called, false, "the handler must not run on invalid params");
    assert.equal(violations.server.length, 1);
    assert.match(violations.server[0].reason, /^params of ping failed their schema/);
  });

  it("refuses to send its own invalid params, as a rejected promise", async () => {
    const { client } = connect();
    await assert.rejects(client.request(pingMethod, { nonce: 5 as unknown as string }), (err: unknown) => {
      assert.ok(err instanceof RpcError);
      assert.equal(err.error.code, "invalid-params");
      return true;
    });
  });

  it("answers an unknown method with `method-not-found`", async () => {
    const { client } = connect();
    const nope = defineMethod("nope", z.object({}), z.object({}));
    await assert.rejects(
      client.request(nope, {}),
      (err: unknown) => err instanceof RpcError && err.error.code === "method-not-found",
    );
  });

  it("rejects a result that fails its schema with `invalid-result`", async () => {
    const { client, server } = connect();
    server.handle(pingMethod, () => ({ nonce: "n", version: 1 }) as unknown as z.input<typeof pingMethod.result>);
    await assert.rejects(
      client.request(pingMethod, { nonce: "n" }),
      (err: unknown) => err instanceof RpcError && err.error.code === "invalid-result",
    );
  });

  it("delivers notifications and drops one that fails its schema, as a violation", async () => {
    const { client, server, serverTransport, violations } = connect();
    const seen: unknown[] = [];
    client.onNotification(workerReadyNotification, (p) => seen.push(p));
    server.notify(workerReadyNotification, { version: "1.0.0", pid: 9 });
    serverTransport.send({ kind: "notification", method: "worker/ready", params: { version: 3 } });
    // A request answered after both notifications proves they were both handled (the transport keeps order).
    server.handle(pingMethod, ({ nonce }) => ({ nonce, ...pong }));
    await client.request(pingMethod, { nonce: "sync" });
    assert.deepEqual(seen, [{ version: "1.0.0", pid: 9 }]);
    assert.equal(violations.client.length, 1);
    assert.match(violations.client[0].reason, /^notification worker\/ready failed its schema/);
  });

  it("reports a message that is not an envelope as a violation and goes on", async () => {
    const { client, server, serverTransport, violations } = connect();
    server.handle(pingMethod, ({ nonce }) => ({ nonce, ...pong }));
    serverTransport.send({ hello: "world" });
    assert.equal((await client.request(pingMethod, { nonce: "after" })).nonce, "after");
    assert.equal(violations.client.length, 1);
    assert.match(violations.client[0].reason, /^message is not a valid envelope/);
  });

  it("fails pending requests with the given error (the other process died)", async () => {
    const { client, server } = connect();
    server.handle(pingMethod, () => new Promise<never>(() => undefined));
    const pending = client.request(pingMethod, { nonce: "n" });
    client.failPending({ code: "worker-exited", message: "The worker exited (code 1)." });
    await assert.rejects(pending, (err: unknown) => err instanceof RpcError && err.error.code === "worker-exited");
  });

  it("fails pending and later requests with `disposed` once disposed", async () => {
    const { client, server } = connect();
    server.handle(pingMethod, () => new Promise<never>(() => undefined));
    const pending = client.request(pingMethod, { nonce: "n" });
    client.dispose();
    await assert.rejects(pending, (err: unknown) => err instanceof RpcError && err.error.code === "disposed");
    await assert.rejects(
      client.request(pingMethod, { nonce: "n" }),
      (err: unknown) => err instanceof RpcError && err.error.code === "disposed",
    );
  });
});
