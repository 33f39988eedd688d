// The research tools past the repository: fetch_url (one page as readable text, through the worker, never the
// sandbox) and web_search (the user's search endpoint, off unless configured). Both act through the swarm's
// WebAccess (src/worker/agent/web/webAccess.ts), which holds the allowlist, the approvals, the caps and the cache.
// A page read from the web for the first time is noted on the board with its URL, so others find it there.
import type { SwarmBoard } from "../../../core/swarmBoard";
import type { BoardEntry } from "../../../protocol/board";
import { fetchUrlArgs, webSearchArgs } from "../../../protocol/webTools";
import type { WebAccess } from "../web/webAccess";
import { defineTool, type CatalogTool } from "./toolDefinition";

/** What the web tools need: who calls, the swarm's web access (absent: no web for this swarm), the board. */
export interface WebToolContext {
  readonly agent: string;
  readonly board: SwarmBoard;
  readonly now: () => number;
  readonly web?: WebAccess;
  readonly signal?: AbortSignal;
}

function webOf(ctx: WebToolContext): WebAccess {
  if (ctx.web === undefined) throw new Error("this swarm has no web access (it was started without it).");
  return ctx.web;
}

/** Characters of the page text quoted in its board note: enough to recognise it, not to flood the feeds. */
const noteChars = 300;

const fetchUrl = defineTool({
  name: "fetch_url",
  kind: "web",
  description:
    "Read a web page (http/https) as plain text. Hosts not on the swarm's allowlist need the user's approval. " +
    "Long pages come in parts: call again with the offset the reply gives. Pages are cached for the swarm.",
  args: fetchUrlArgs,
  run: async (ctx: WebToolContext, { url, offset }) => {
    const web = webOf(ctx);
    const page = await web.fetchPage(ctx.agent, url, ctx.signal);
    const { pageChars } = web;
    const part = page.text.slice(offset, offset + pageChars);
    const end = offset + part.length;
    const notes = [...page.notes];
    if (offset > page.text.length) notes.push(`offset ${offset} is past the end (${page.text.length} characters)`);
    if (end < page.text.length)
      notes.push(
        `text cut at ${pageChars} characters per reply (swarmboard.webPageChars): characters ${offset}-${end} of ` +
          `${page.text.length}; call fetch_url again with offset ${end} to read on`,
      );
    let posted: BoardEntry | undefined;
    if (!page.cached) {
      const quote = page.text.slice(0, noteChars).replace(/\s+/g, " ").trim();
      posted = await ctx.board.postFinding({
        author: ctx.agent,
        kind: "OBSERVED",
        time: ctx.now(),
        text:
          `fetched ${page.url}${page.finalUrl !== page.url ? ` (from ${page.finalUrl})` : ""}` +
          `${page.title ? ` "${page.title}"` : ""}, ${page.text.length} characters (cached: fetch_url reads it ` +
          `again without a request): ${quote}${page.text.length > noteChars ? "..." : ""}`,
      });
    }
    const reply = {
      url: page.url,
      ...(page.finalUrl !== page.url ? { finalUrl: page.finalUrl } : {}),
      ...(page.title !== undefined ? { title: page.title } : {}),
      offset,
      totalChars: page.text.length,
      text: part,
      cached: page.cached,
      ...(notes.length > 0 ? { notes } : {}),
    };
    return { reply, posted };
  },
  meaning: ({ reply, posted }) => ({
    summary: `fetch_url ${reply.url}: ${reply.text.length} of ${reply.totalChars} chars${reply.cached ? " (cached)" : ""}${reply.notes ? ` [${reply.notes.join("; ")}]` : ""}`,
    reply,
    progress: { finding: posted !== undefined },
    posted: posted ? [posted] : [],
  }),
});

const webSearch = defineTool({
  name: "web_search",
  kind: "web",
  description:
    "Search the web through the search endpoint the user configured (off unless configured; an endpoint host " +
    "off the allowlist is asked about): titles, URLs and snippets; read a result with fetch_url.",
  args: webSearchArgs,
  run: async (ctx: WebToolContext, { query, limit }) => ({
    query,
    results: await webOf(ctx).search(ctx.agent, query, limit, ctx.signal),
  }),
  meaning: (r) => ({ summary: `web_search "${r.query}": ${r.results.length} results` }),
});

export const webTools: readonly CatalogTool<WebToolContext>[] = [fetchUrl, webSearch];
