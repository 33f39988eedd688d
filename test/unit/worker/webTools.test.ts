// fetch_url and web_search called as an agent calls them (dispatchCall: the catalogue's definition, the
// arguments parsed once, the meaning read back) against loopback HTTP servers this test starts, with the
// swarm's real approval path (SwarmApprovals) answering for the user.
import { strict as assert } from "assert";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { MemoryBoardStore } from "../../../src/core/boardStore";
import { SwarmBoard } from "../../../src/core/swarmBoard";
import { webSettingsSchema, type WebSettings } from "../../../src/protocol/webTools";
import type { ApprovalRequest } from "../../../src/workspace/approvals";
import { dispatchCall } from "../../../src/worker/agent/callDispatch";
import { SwarmApprovals } from "../../../src/worker/swarm/swarmApprovals";
import { toolsForRole } from "../../../src/worker/agent/toolCatalog";
import type { ToolContext } from "../../../src/worker/agent/tools/toolContext";
import { WebAccess } from "../../../src/worker/agent/web/webAccess";

const page = `<!doctype html><html><head><title>Swarm &amp; Pages</title><script>var secret = "SCRIPT";</script>
<style>p { color: red }</style></head><body><nav><a href="/">Home</a></nav><main><h1>Readable heading</h1>
<p>First paragraph with <b>bold</b> text and a <a href="https://example.org/more">link</a>.</p>
<ul><li>one</li><li>two</li></ul></main></body></html>`;

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

async function serve(handler: Handler): Promise<{ base: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    handler(req, res);
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return { base: `http://127.0.0.1:${port}`, hits, close };
}

const role = { name: "researcher", count: 1, instructions: "read", tools: ["fetch_url", "web_search"] };
const tools = toolsForRole(role, false, false);

interface Swarm {
  readonly ctx: ToolContext;
  readonly board: SwarmBoard;
  readonly asked: ApprovalRequest[];
}

const dirs: string[] = [];

/** A swarm's board and web access whose user answers every approval with `answer`. */
function swarm(settings: Partial<WebSettings>, answer: "once" | "swarm" | "deny"): Swarm {
  const asked: ApprovalRequest[] = [];
  const approvals: SwarmApprovals = new SwarmApprovals((request) => {
    asked.push(request);
    setImmediate(() => approvals.answer(request.id, answer));
  });
  const board = new SwarmBoard({ store: new MemoryBoardStore(), visibility: "shared", leaseMs: 60_000 });
  board.join("agent-1", { isSynthesist: false, name: "researcher" });
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), "swarmboard-web-"));
  dirs.push(cacheDir);
  const web = new WebAccess({
    settings: webSettingsSchema.parse(settings),
    recipeHosts: [],
    approver: approvals,
    cacheDir,
    now: () => Date.now(),
  });
  return { ctx: { agent: "agent-1", board, now: () => Date.now(), web }, board, asked };
}

const call = (s: Swarm, tool: string, args: object) => dispatchCall(s.ctx, tools, tool, JSON.stringify(args));
const hostOf = (base: string) => new URL(base).host;

describe("fetch_url and web_search through the real tool path (loopback servers)", function () {
  let site: Awaited<ReturnType<typeof serve>>;
  let other: Awaited<ReturnType<typeof serve>>;

  before(async () => {
    site = await serve((req, res) => {
      if (req.url === "/page") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(page);
      } else if (req.url === "/big") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("word ".repeat(40_000));
      } else if (req.url === "/slow") {
        res.writeHead(200, { "content-type": "text/html" });
        res.write("<p>the start arrived</p>");
        // ...and the rest never does: the fetch's time cap cuts it.
      } else if (req.url === "/silent") {
        // no headers at all
      } else if (req.url === "/away") {
        res.writeHead(302, { location: `${other.base}/landing` });
        res.end();
      } else if (req.url === "/image") {
        res.writeHead(200, { "content-type": "image/png" });
        res.end(Buffer.alloc(64));
      } else if (req.url?.startsWith("/search?")) {
        const q = new URL(req.url, site.base).searchParams;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            query: q.get("q"),
            number_of_results: 3,
            results: [1, 2, 3].map((i) => ({
              url: `${site.base}/r${i}`,
              title: `Result ${i} for ${q.get("q")} (${q.get("format")})`,
              content: `snippet ${i}`,
              engine: "loopback",
            })),
          }),
        );
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    other = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("the other host's page");
    });
  });

  after(async () => {
    await site.close();
    await other.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("reads an allowed host's page as readable text, notes it on the board, and serves it cached after", async () => {
    const s = swarm({ allowedHosts: [hostOf(site.base)] }, "deny");
    const out = await call(s, "fetch_url", { url: `${site.base}/page#section` });
    assert.ok(out.ok, out.error);
    const reply = out.result as { text: string; title: string; cached: boolean; url: string };
    assert.equal(reply.url, `${site.base}/page`, "the fragment is not part of the page");
    assert.equal(reply.title, "Swarm & Pages");
    assert.match(
      reply.text,
      /^Readable heading\n\nFirst paragraph with bold text and a link <https:\/\/example\.org\/more>\./,
    );
    assert.match(reply.text, /\* one\n \* two/);
    assert.doesNotMatch(
      reply.text,
      /<\/?[a-z0-9]+[ >]|SCRIPT|color: red|Home/i,
      "no markup, script, style or navigation",
    );
    assert.equal(reply.cached, false);
    assert.deepEqual(s.asked, [], "an allowed host is not asked about");
    assert.equal(out.posted.length, 1);
    assert.equal(out.posted[0]!.kind, "OBSERVED");
    assert.match(out.posted[0]!.text, new RegExp(`^fetched ${site.base}/page "Swarm & Pages", \\d+ characters`));
    const hits = site.hits.length;
    const again = await call(s, "fetch_url", { url: `${site.base}/page` });
    assert.ok(again.ok);
    assert.equal((again.result as { cached: boolean }).cached, true);
    assert.equal(site.hits.length, hits, "no second request");
    assert.equal(again.posted.length, 0, "noted once");
  });

  it("asks about a host not on the allowlist, the URL shown, and a deny reaches the agent as a tool error", async () => {
    const s = swarm({ allowedHosts: [hostOf(site.base)] }, "deny");
    const out = await call(s, "fetch_url", { url: `${other.base}/doc` });
    assert.equal(out.ok, false);
    assert.match(
      out.error!,
      new RegExp(
        `^fetch_url: not approved: GET ${other.base}/doc \\(127\\.0\\.0\\.1 is not on this swarm's web allowlist`,
      ),
    );
    assert.match(out.error!, /swarmboard\.webAllowedHosts/);
    assert.equal(s.asked.length, 1);
    assert.equal(s.asked[0]!.command, `fetch_url ${other.base}/doc`);
    assert.equal(s.asked[0]!.agent, "agent-1");
    assert.equal(s.asked[0]!.sandboxed, false);
    assert.equal(other.hits.length, 0, "nothing was requested from the host that was denied");
  });

  it("reads the page once approved, and 'allow for this swarm' stops the asking for that host", async () => {
    const once = swarm({}, "once");
    assert.ok((await call(once, "fetch_url", { url: `${other.base}/a` })).ok);
    assert.ok((await call(once, "fetch_url", { url: `${other.base}/b` })).ok);
    assert.equal(once.asked.length, 2, "once is once");
    const forSwarm = swarm({}, "swarm");
    const first = await call(forSwarm, "fetch_url", { url: `${other.base}/c` });
    assert.equal((first.result as { text: string }).text, "the other host's page");
    assert.ok((await call(forSwarm, "fetch_url", { url: `${other.base}/d` })).ok);
    assert.equal(forSwarm.asked.length, 1, "the host is allowed for the rest of the swarm");
  });

  it("asks again when an allowed page redirects to a host not on the allowlist", async () => {
    const s = swarm({ allowedHosts: [hostOf(site.base)] }, "deny");
    const before = other.hits.length;
    const out = await call(s, "fetch_url", { url: `${site.base}/away` });
    assert.equal(out.ok, false);
    assert.equal(s.asked.length, 1);
    assert.equal(s.asked[0]!.command, `fetch_url ${other.base}/landing`);
    assert.match(s.asked[0]!.reasons[0]!, new RegExp(`${site.base}/away redirected here`));
    assert.match(out.error!, /not approved: GET .*\/landing/);
    assert.equal(other.hits.length, before, "the redirect target was not requested");
    const approved = swarm({ allowedHosts: [hostOf(site.base)] }, "once");
    const followed = await call(approved, "fetch_url", { url: `${site.base}/away` });
    assert.ok(followed.ok, followed.error);
    assert.equal((followed.result as { finalUrl: string }).finalUrl, `${other.base}/landing`);
  });

  it("cuts an oversize page at the byte cap and says so, with the number and what to do", async () => {
    const s = swarm({ allowedHosts: [hostOf(site.base)], maxBytes: 4096, pageChars: 100_000 }, "deny");
    const out = await call(s, "fetch_url", { url: `${site.base}/big` });
    assert.ok(out.ok, out.error);
    const reply = out.result as { text: string; notes: string[] };
    assert.ok(reply.text.length <= 4096 && reply.text.length > 4000, `${reply.text.length} characters kept`);
    assert.match(
      reply.notes.join("\n"),
      /cut: the page was cut at 4,096 bytes \(the swarmboard\.webFetchMaxBytes setting\)/,
    );
    assert.match(out.summary, /webFetchMaxBytes/);
  });

  it("cuts a slow page where it stood after the time cap, and says so; a silent host is an error", async () => {
    const s = swarm({ allowedHosts: [hostOf(site.base)], timeoutMs: 400 }, "deny");
    const started = Date.now();
    const out = await call(s, "fetch_url", { url: `${site.base}/slow` });
    assert.ok(Date.now() - started < 5000, "the cap ended it");
    assert.ok(out.ok, out.error);
    const reply = out.result as { text: string; notes: string[] };
    assert.equal(reply.text, "the start arrived");
    assert.match(reply.notes[0]!, /still arriving after 400 ms \(the swarmboard\.webFetchTimeoutMs setting\)/);
    const silent = await call(s, "fetch_url", { url: `${site.base}/silent` });
    assert.equal(silent.ok, false);
    assert.match(
      silent.error!,
      /no answer from 127\.0\.0\.1:\d+ \(a fetch may take up to 400 ms, the swarmboard\.webFetchTimeoutMs setting\)/,
    );
  });

  it("hands a long page out in parts, with the offset to read on, from the cache", async () => {
    const s = swarm({ allowedHosts: [hostOf(site.base)], pageChars: 1000 }, "deny");
    const first = await call(s, "fetch_url", { url: `${site.base}/big` });
    const r1 = first.result as { text: string; totalChars: number; notes: string[] };
    assert.equal(r1.text.length, 1000);
    assert.match(
      r1.notes.at(-1)!,
      /text cut at 1000 characters per reply \(swarmboard\.webPageChars\).*offset 1000 to read on/,
    );
    const hits = site.hits.length;
    const second = await call(s, "fetch_url", { url: `${site.base}/big`, offset: 1000 });
    const r2 = second.result as { text: string; offset: number };
    assert.equal(r2.offset, 1000);
    assert.equal(r2.text.length, 1000);
    assert.equal(site.hits.length, hits, "read on from the cache");
  });

  it("refuses what is not a readable web page: other schemes, binary bodies, error statuses", async () => {
    const s = swarm({ allowedHosts: [hostOf(site.base)] }, "deny");
    assert.match((await call(s, "fetch_url", { url: "file:///etc/passwd" })).error!, /file: URLs are not read/);
    assert.match((await call(s, "fetch_url", { url: "not a url" })).error!, /is not a URL/);
    assert.match(
      (await call(s, "fetch_url", { url: `${site.base}/image` })).error!,
      /image\/png \(64 bytes\), not text/,
    );
    assert.match((await call(s, "fetch_url", { url: `${site.base}/missing` })).error!, /answered 404/);
  });

  it("names the setting when an allowed host or the search endpoint is not valid", async () => {
    assert.throws(
      () => swarm({ allowedHosts: ["https://docs.example.org/"] }, "deny"),
      /^Error: the swarmboard\.webAllowedHosts setting: "https:\/\/docs\.example\.org\/" is not a host pattern/,
    );
    const s = swarm({ searchEndpoint: "searx.local/search" }, "deny");
    const out = await call(s, "web_search", { query: "q" });
    assert.match(
      out.error!,
      /^web_search: the swarmboard\.webSearchEndpoint setting: "searx\.local\/search" is not a URL/,
    );
  });

  it("web_search is off unless configured, and says how to turn it on", async () => {
    const s = swarm({ allowedHosts: [hostOf(site.base)] }, "deny");
    const out = await call(s, "web_search", { query: "kv cache" });
    assert.equal(out.ok, false);
    assert.match(out.error!, /web search is off: no search endpoint is configured.*swarmboard\.webSearchEndpoint/);
  });

  it("web_search asks about an endpoint host off the allowlist, the query's URL shown, and a deny is a tool error", async () => {
    const s = swarm({ searchEndpoint: `${site.base}/search` }, "deny");
    const out = await call(s, "web_search", { query: "shared kv cells" });
    assert.equal(out.ok, false);
    assert.match(out.error!, /not approved: GET http:\/\/127\.0\.0\.1:\d+\/search\?q=shared\+kv\+cells&format=json/);
    assert.equal(s.asked.length, 1);
    assert.match(s.asked[0]!.command, /^web_search http:\/\/127\.0\.0\.1:\d+\/search\?q=shared/);
    const approved = swarm({ searchEndpoint: `${site.base}/search` }, "once");
    assert.ok((await call(approved, "web_search", { query: "kv" })).ok, "an approved endpoint answers");
    assert.equal(approved.asked.length, 1);
  });

  it("web_search returns the results of a SearXNG-style JSON endpoint on the allowlist, asking nothing", async () => {
    const s = swarm({ searchEndpoint: `${site.base}/search`, allowedHosts: [hostOf(site.base)] }, "deny");
    const out = await call(s, "web_search", { query: "shared kv cells", limit: 2 });
    assert.ok(out.ok, out.error);
    assert.deepEqual((out.result as { results: unknown[] }).results, [
      { title: "Result 1 for shared kv cells (json)", url: `${site.base}/r1`, snippet: "snippet 1" },
      { title: "Result 2 for shared kv cells (json)", url: `${site.base}/r2`, snippet: "snippet 2" },
    ]);
    assert.equal(out.summary, 'web_search "shared kv cells": 2 results');
    assert.deepEqual(s.asked, [], "an endpoint on the allowlist is not asked about");
  });
});
