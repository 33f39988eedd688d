import { strict as assert } from "assert";
import { effectivePort, hostAllowed, parseHostPattern } from "../../../src/core/hostAllowlist";
import { parseRecipeValue } from "../../../src/core/recipeParse";
import { builtinRecipeInputs } from "../../../src/core/builtinRecipes";

const allow = (patterns: string[], url: string) => {
  const u = new URL(url);
  return hostAllowed(patterns.map(parseHostPattern), u.hostname, effectivePort(u));
};

describe("web host allowlist", () => {
  it("matches a host exactly, in any case, on the web's ports unless the pattern names one", () => {
    assert.ok(allow(["docs.python.org"], "https://DOCS.python.org/3/"));
    assert.ok(allow(["docs.python.org"], "http://docs.python.org/"));
    assert.ok(allow(["docs.python.org"], "http://docs.python.org:443/"));
    assert.ok(!allow(["docs.python.org"], "https://python.org/"));
    assert.ok(!allow(["docs.python.org"], "https://docs.python.org.evil.test/"));
    assert.ok(allow(["127.0.0.1:8080"], "http://127.0.0.1:8080/x"));
    assert.ok(!allow(["127.0.0.1:8080"], "http://127.0.0.1:8081/x"));
    assert.ok(allow(["example.org:443"], "https://example.org/"), "the scheme's default port counts");
    assert.ok(allow(["[::1]"], "http://[::1]/"));
  });

  it("allows only 80 and 443 to a pattern without a port; host:port allows that port", () => {
    const patterns = [parseHostPattern("docs.example.org")];
    assert.equal(hostAllowed(patterns, "docs.example.org", "22"), false);
    for (const url of [
      "http://docs.example.org:22/",
      "http://docs.example.org:8080/",
      "https://docs.example.org:5432/",
    ])
      assert.ok(!allow(["docs.example.org"], url), url);
    assert.ok(!allow(["*.example.org"], "http://api.example.org:6379/"));
    assert.ok(!allow(["[::1]"], "http://[::1]:9/"));
    assert.ok(allow(["docs.example.org:8080"], "http://docs.example.org:8080/"));
    assert.ok(!allow(["docs.example.org:8080"], "http://docs.example.org/"), "a named port is the only one");
    assert.ok(allow(["docs.example.org", "docs.example.org:8080"], "http://docs.example.org:8080/"));
  });

  it("matches subdomains only with a wildcard, never the bare domain", () => {
    assert.ok(allow(["*.mozilla.org"], "https://developer.mozilla.org/"));
    assert.ok(!allow(["*.mozilla.org"], "https://mozilla.org/"));
    assert.ok(!allow(["*.mozilla.org"], "https://evilmozilla.org/"));
  });

  it("refuses what is not a host pattern, saying what is expected", () => {
    for (const bad of ["https://example.org", "example.org/path", "user@example.org", "*", "a b"])
      assert.throws(() => parseHostPattern(bad), /is not a host pattern: expected a host name/, bad);
  });

  it("is checked in a recipe's webHosts, by field", () => {
    const parsed = parseRecipeValue("r.json", { ...builtinRecipeInputs["research"], webHosts: ["ok.org", "http://x"] });
    assert.ok(!parsed.ok);
    assert.deepEqual(
      parsed.problems.map((p) => p.field),
      ["webHosts[1]"],
    );
  });
});
