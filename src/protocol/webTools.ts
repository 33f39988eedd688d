// The research tools that reach past the repository: `fetch_url` (one page, as readable text) and `web_search`
// (a search endpoint the user configures). Their argument schemas, the settings that bound them, and the
// search endpoint's answer as it crosses into the worker (parsed here, never trusted as is).
import { z } from "zod";

export const fetchUrlArgs = z.object({
  url: z.string().min(1).max(4096).describe("an http:// or https:// URL"),
  offset: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe("first character of the page's text to return; use it to read on where a reply was cut"),
});
export type FetchUrlArgs = z.infer<typeof fetchUrlArgs>;

export const webSearchArgs = z.object({
  query: z.string().min(1).max(1000).describe("what to search for, in words"),
  limit: z.number().int().min(1).max(50).default(8).describe("most results returned"),
});
export type WebSearchArgs = z.infer<typeof webSearchArgs>;

/** How a swarm reaches the web (the `swarmboard.web*` settings; the recipe's `webHosts` add to the hosts). */
export const webSettingsSchema = z.object({
  /** Hosts whose pages are read without asking (see src/core/hostAllowlist.ts for the patterns). */
  allowedHosts: z.array(z.string().min(1)).default([]),
  /** Most bytes read of one response; the rest is cut and the reply says so. */
  maxBytes: z.number().int().min(1024).default(2_000_000),
  /** Most milliseconds one fetch (all its redirects) may take; a slower page is cut where it stood. */
  timeoutMs: z.number().int().min(100).default(20_000),
  /** Characters of a page's text in one fetch_url reply (the rest is read with `offset`). */
  pageChars: z.number().int().min(200).default(6000),
  /** A SearXNG-style JSON search endpoint (`https://searx.example/search`); empty turns web_search off. */
  searchEndpoint: z.string().default(""),
});
export type WebSettings = z.infer<typeof webSettingsSchema>;

/** A SearXNG `format=json` answer: only the fields web_search uses; others are ignored. */
export const searchAnswerSchema = z.object({
  results: z.array(
    z.object({
      url: z.string(),
      title: z.string().default(""),
      content: z.string().default(""),
    }),
  ),
});
export type SearchAnswer = z.infer<typeof searchAnswerSchema>;

/** A page as the swarm's cache keeps it (src/worker/agent/web/webAccess.ts), read back through this schema. */
export const cachedPageSchema = z.object({
  url: z.string(),
  finalUrl: z.string(),
  title: z.string().optional(),
  text: z.string(),
  notes: z.array(z.string()),
});
