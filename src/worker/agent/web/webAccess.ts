// A swarm's way to the web, one per swarm: fetch_url reads a page as text and web_search asks the search
// endpoint the user configured. Hosts on the swarm's allowlist (the recipe's webHosts and the
// swarmboard.webAllowedHosts setting) are read at once; any other host goes through the command-approval path,
// the URL shown, and so does every redirect to such a host. Size and time are capped by the settings, and a
// cut page says where it was cut and what to do. Pages are cached for the swarm (memory and its state dir), so
// reading on with an offset, or a second agent reading the same page, costs no request and no approval.
import { createHash, randomUUID } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { effectivePort, hostAllowed, parseHostPattern, type HostPattern } from "../../../core/hostAllowlist";
import { cachedPageSchema, searchAnswerSchema, type WebSettings } from "../../../protocol/webTools";
import type { CommandApprover } from "../../../workspace/approvals";
import { httpGet, NoAnswerError, type HttpResponse } from "./httpGet";
import { pageText } from "./pageText";

/** Redirect hops followed in one fetch: a bound on loops (browsers stop at 20), not a cap on content. */
const maxRedirects = 10;

export interface WebAccessOptions {
  readonly settings: WebSettings;
  /** The recipe's webHosts. */
  readonly recipeHosts: readonly string[];
  readonly approver: CommandApprover;
  /** Where pages are cached for the swarm (in its state dir). */
  readonly cacheDir: string;
  readonly now: () => number;
}

export interface FetchedPage {
  /** The URL asked for (without its #fragment). */
  readonly url: string;
  /** Where the page was read after redirects. */
  readonly finalUrl: string;
  readonly title?: string;
  readonly text: string;
  /** What the agent must know about this page: where and why it was cut. */
  readonly notes: readonly string[];
}

export interface SearchResult {
  readonly title: string;
  readonly url: string;
  readonly snippet: string;
}

/** An approval that was refused: the agent reads it as a tool error. */
export class WebAccessDenied extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebAccessDenied";
  }
}

const n = (x: number) => x.toLocaleString("en-US");

export class WebAccess {
  private readonly patterns: readonly HostPattern[];
  private readonly pages = new Map<string, FetchedPage>();

  /** Throws, naming the setting, when an allowlist pattern is not one. */
  constructor(private readonly options: WebAccessOptions) {
    this.patterns = [
      ...options.settings.allowedHosts.map((p) =>
        withSource(p, "the swarmboard.webAllowedHosts setting", parseHostPattern),
      ),
      ...options.recipeHosts.map((p) => withSource(p, "the recipe's webHosts", parseHostPattern)),
    ];
  }

  /** Characters of page text in one fetch_url reply (the swarmboard.webPageChars setting). */
  get pageChars(): number {
    return this.options.settings.pageChars;
  }

  /** The page at `rawUrl` as text, from the cache or the web; `cached` says which. */
  async fetchPage(agent: string, rawUrl: string, signal?: AbortSignal): Promise<FetchedPage & { cached: boolean }> {
    const url = parseWebUrl(rawUrl);
    const known = this.pages.get(url.href) ?? (await this.readCached(url.href));
    if (known !== undefined) return { ...known, cached: true };
    const page = await this.download(agent, url, signal);
    this.pages.set(url.href, page);
    await this.writeCached(page);
    return { ...page, cached: false };
  }

  /** Results of the configured search endpoint (SearXNG's `format=json`); refused when none is configured. */
  async search(agent: string, query: string, limit: number, signal?: AbortSignal): Promise<SearchResult[]> {
    const endpoint = this.options.settings.searchEndpoint.trim();
    if (endpoint === "")
      throw new Error(
        "web search is off: no search endpoint is configured. The user can set swarmboard.webSearchEndpoint to a " +
          "SearXNG JSON endpoint (e.g. http://127.0.0.1:8888/search); meanwhile read pages you know with fetch_url.",
      );
    const url = withSource(endpoint, "the swarmboard.webSearchEndpoint setting", parseWebUrl);
    url.searchParams.set("q", query);
    url.searchParams.set("format", "json");
    // Like a page: an endpoint host off the allowlist is asked about once, with the query's URL shown.
    await this.checkHost(agent, url, undefined, new Set(), signal, "web_search");
    const response = await this.get(url, this.options.now() + this.options.settings.timeoutMs, signal);
    if (response.status !== 200)
      throw new Error(`the search endpoint ${url.host} answered ${response.status} ${response.statusText}`.trim());
    if (response.cut !== undefined)
      throw new Error(`the search answer ${cutNote(response.cut, this.options.settings)}`);
    let json: unknown;
    try {
      json = JSON.parse(response.body.toString("utf8"));
    } catch {
      throw new Error(
        `the search endpoint ${url.host} did not answer JSON: is it a SearXNG endpoint with format=json on?`,
      );
    }
    const parsed = searchAnswerSchema.safeParse(json);
    if (!parsed.success) throw new Error(`the search endpoint's JSON has no results list (SearXNG's format expected)`);
    return parsed.data.results.slice(0, limit).map((r) => ({ title: r.title, url: r.url, snippet: r.content }));
  }

  private async download(agent: string, url: URL, signal?: AbortSignal): Promise<FetchedPage> {
    const deadline = this.options.now() + this.options.settings.timeoutMs;
    const approvedHosts = new Set<string>();
    let at = url;
    for (let hop = 0; hop <= maxRedirects; hop++) {
      await this.checkHost(agent, at, hop === 0 ? undefined : url, approvedHosts, signal);
      const response = await this.get(at, deadline, signal);
      if (response.status >= 300 && response.status < 400 && response.location !== undefined) {
        at = parseWebUrl(new URL(response.location, at).href);
        continue;
      }
      if (response.status >= 400 || response.status < 200)
        throw new Error(`${at.href} answered ${response.status} ${response.statusText}`.trim());
      const { text, title } = pageText(response.body, response.contentType);
      const notes = response.cut === undefined ? [] : [`cut: the page ${cutNote(response.cut, this.options.settings)}`];
      return { url: url.href, finalUrl: at.href, text, notes, ...(title !== undefined ? { title } : {}) };
    }
    throw new Error(`${url.href} redirected more than ${maxRedirects} times; read the last address directly`);
  }

  /** Passes an allowed (or already approved) host; asks the user for any other, the URL shown. */
  private async checkHost(
    agent: string,
    url: URL,
    redirectedFrom: URL | undefined,
    approved: Set<string>,
    signal?: AbortSignal,
    tool: "fetch_url" | "web_search" = "fetch_url",
  ): Promise<void> {
    const host = `${url.hostname}:${effectivePort(url)}`;
    if (hostAllowed(this.patterns, url.hostname, effectivePort(url)) || approved.has(host)) return;
    const reason =
      `ask: ${url.hostname} is not on this swarm's web allowlist (the recipe's webHosts, the ` +
      `swarmboard.webAllowedHosts setting)${redirectedFrom ? `; ${redirectedFrom.href} redirected here` : ""}`;
    const request = {
      id: randomUUID(),
      agent,
      command: `${tool} ${url.href}`,
      cwd: "the worker's network access (outside the sandbox)",
      reasons: [reason],
      sandboxed: false,
      rememberAs: `${tool} host ${host}`,
    };
    if (!(await this.options.approver.requestApproval(request, signal)))
      throw new WebAccessDenied(
        `not approved: GET ${url.href} (${reason.slice("ask: ".length)}). Read an allowed host instead, or ask ` +
          `the user to add ${url.hostname} to swarmboard.webAllowedHosts.`,
      );
    approved.add(host);
  }

  private async get(url: URL, deadline: number, signal?: AbortSignal): Promise<HttpResponse> {
    const { maxBytes, timeoutMs } = this.options.settings;
    try {
      return await httpGet(url, { maxBytes, deadline, now: this.options.now, ...(signal ? { signal } : {}) });
    } catch (error) {
      if (!(error instanceof NoAnswerError)) throw error;
      throw new Error(
        `${error.message} (a fetch may take up to ${n(timeoutMs)} ms, the swarmboard.webFetchTimeoutMs setting); ` +
          "try again later, another page, or ask the user to raise the setting",
      );
    }
  }

  private cacheFile(url: string): string {
    return path.join(this.options.cacheDir, createHash("sha256").update(url).digest("hex").slice(0, 32) + ".json");
  }

  private async readCached(url: string): Promise<FetchedPage | undefined> {
    const text = await readFile(this.cacheFile(url), "utf8").catch(() => undefined);
    if (text === undefined) return undefined;
    let page: FetchedPage;
    try {
      page = cachedPageSchema.parse(JSON.parse(text));
    } catch {
      return undefined; // a torn or foreign file is a cache miss: the page is read again
    }
    if (page.url !== url) return undefined;
    this.pages.set(url, page);
    return page;
  }

  private async writeCached(page: FetchedPage): Promise<void> {
    await mkdir(this.options.cacheDir, { recursive: true });
    await writeFile(this.cacheFile(page.url), JSON.stringify(page));
  }
}

/** `parse(text)`, its error prefixed with where the text came from (a setting, the recipe). */
function withSource<T>(text: string, source: string, parse: (text: string) => T): T {
  try {
    return parse(text);
  } catch (e) {
    throw new Error(`${source}: ${(e as Error).message}`);
  }
}

/** An http(s) URL without its fragment; anything else is refused with what is expected. */
export function parseWebUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`"${raw}" is not a URL: give an absolute http:// or https:// address`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`${url.protocol} URLs are not read: give an http:// or https:// address`);
  if (url.username !== "" || url.password !== "")
    throw new Error("URLs with a user name or password are not read: give the address without them");
  url.hash = "";
  return url;
}

/** What a cut says: where it was cut, the setting that cut it, and what to do. */
function cutNote(cut: "size" | "time", settings: WebSettings): string {
  return cut === "size"
    ? `was cut at ${n(settings.maxBytes)} bytes (the swarmboard.webFetchMaxBytes setting): what follows is its ` +
        "start; look for a shorter page, or ask the user to raise the setting"
    : `was still arriving after ${n(settings.timeoutMs)} ms (the swarmboard.webFetchTimeoutMs setting): what ` +
        "follows is what arrived by then; try again later, another page, or ask the user to raise the setting";
}
