// Which hosts a swarm's agents may read pages from without asking: the recipe's `webHosts` plus the
// `swarmboard.webAllowedHosts` setting. A pattern is a host name (`docs.python.org`), a wildcard for its
// subdomains (`*.python.org`, which does not match `python.org` itself), or either with a port
// (`127.0.0.1:8080`); a pattern without a port allows the web's ports only (80 and 443), so `docs.example.org`
// never lets an agent reach that host's SSH or database port; `host:port` allows that port. Matching is on the URL's
// host as the URL parser normalised it (lower case, IPv6 in brackets), so `EXAMPLE.com.` and `example.com`
// are the same host and `example.com.evil.test` is not `example.com`.

export interface HostPattern {
  /** Lower-case host, without a trailing dot; for a wildcard, the suffix after `*.`. */
  readonly host: string;
  readonly wildcard: boolean;
  readonly port?: string;
}

function normalHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, "");
}

/** Parses one pattern; throws a message naming the pattern and what is expected. */
export function parseHostPattern(text: string): HostPattern {
  const trimmed = text.trim();
  const match = /^(\*\.)?(\[[0-9a-fA-F:.]+\]|[^\s/:*@?#[\]]+)(?::(\d{1,5}))?$/.exec(trimmed);
  if (match === null)
    throw new Error(
      `"${text}" is not a host pattern: expected a host name (docs.example.org), *.example.org for its subdomains, ` +
        "or either with :port (no scheme, path or user).",
    );
  const [, star, host, port] = match;
  return { host: normalHost(host!), wildcard: star !== undefined, ...(port !== undefined ? { port } : {}) };
}

/** The ports a pattern without a port allows: the web's own. */
export const WEB_PORTS: readonly string[] = ["80", "443"];

/** True when `host` (and `port`, as the URL gives them) is allowed by one of the patterns. */
export function hostAllowed(patterns: readonly HostPattern[], host: string, port: string): boolean {
  const h = normalHost(host);
  return patterns.some((p) => {
    if (p.port !== undefined ? p.port !== port : !WEB_PORTS.includes(port)) return false;
    return p.wildcard ? h.endsWith("." + p.host) : h === p.host;
  });
}

/** The URL's port, or the scheme's default when it has none (so `:443` and no port are the same). */
export function effectivePort(url: URL): string {
  if (url.port !== "") return url.port;
  return url.protocol === "https:" ? "443" : "80";
}
