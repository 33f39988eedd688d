import { strict as assert } from "assert";
import fc from "fast-check";
import { referenceMatches } from "./globReference";
import { escapeGlob, globMatchesPath, globsIntersect, parseGlob, pathAsGlob } from "../../../src/core/globs";

const matches = referenceMatches;

const pathSegments = ["a", "b", "ab", "ba", "aab", "c.ts"];
const universe: string[] = [];
for (const x of pathSegments) {
  universe.push(x);
  for (const y of pathSegments) {
    universe.push(`${x}/${y}`);
    for (const z of pathSegments) universe.push(`${x}/${y}/${z}`);
  }
}
const globSegment = fc.constantFrom("a", "b", "ab", "*", "?", "a*", "*b", "**", "{a,ba}", "[ab]", "*.ts", "c.ts", "?b");
const globArb = fc.array(globSegment, { minLength: 1, maxLength: 3 }).map((s) => s.join("/"));

describe("globs", () => {
  it("finds intersections of literal, star, question mark and globstar patterns", () => {
    const yes: Array<[string, string]> = [
      ["src/**", "src/core/a.ts"],
      ["src/*.ts", "src/a.ts"],
      ["src/*.ts", "src/?.ts"],
      ["**/*.test.ts", "test/unit/x.test.ts"],
      ["a*", "*b"],
      ["src/{core,host}/*.ts", "src/host/x.ts"],
      ["**", "anything/at/all"],
      ["src/", "src/deep/file"],
      ["./src//a.ts", "src/a.ts"],
      ["src/**/x.ts", "src/x.ts"],
    ];
    for (const [a, b] of yes) {
      assert.equal(globsIntersect(a, b), true, `${a} and ${b}`);
      assert.equal(globsIntersect(b, a), true, `${b} and ${a} (symmetric)`);
    }
  });

  it("proves disjoint patterns disjoint", () => {
    const no: Array<[string, string]> = [
      ["src/*.ts", "test/*.ts"],
      ["src/*.ts", "src/*.js"],
      ["src/*.ts", "src/a/b.ts"],
      ["a?", "abc"],
      ["src/{core,host}/*.ts", "src/runtime/x.ts"],
      ["**/*.md", "src/a.ts"],
      ["x/**/y", "x/z"],
    ];
    for (const [a, b] of no) {
      assert.equal(globsIntersect(a, b), false, `${a} and ${b}`);
      assert.equal(globsIntersect(b, a), false, `${b} and ${a} (symmetric)`);
    }
  });

  it("reads what is outside the subset as 'may touch anything'", () => {
    assert.deepEqual(parseGlob("!src/**"), parseGlob("**"));
    assert.deepEqual(parseGlob("src/@(a|b).ts"), parseGlob("**"));
    assert.deepEqual(parseGlob("src/{1..3}.ts"), parseGlob("**"));
    assert.deepEqual(parseGlob("src/{a"), parseGlob("**"));
    assert.equal(globsIntersect("!src/**", "src/a.ts"), true);
    assert.equal(globsIntersect("{1..3}", "zzz/q"), true);
  });

  it("treats a class as one character (generous, never missing an overlap)", () => {
    assert.equal(globsIntersect("a[bc]", "ab"), true);
    assert.equal(globsIntersect("a[bc]", "ad"), true, "over-approximation is allowed");
    assert.equal(globsIntersect("a[bc]", "abc"), false, "a class is still exactly one character");
  });

  it("escapes paths so that special characters are literal", () => {
    assert.equal(escapeGlob("a*b?.ts"), "a\\*b\\?.ts");
    assert.equal(globMatchesPath(escapeGlob("a*b"), "a*b"), true);
    assert.equal(globsIntersect(escapeGlob("a*b"), "axb"), false);
    assert.equal(globsIntersect(pathAsGlob("src/core/"), "src/core/x/y.ts"), true);
    assert.equal(globsIntersect(pathAsGlob("src/core"), "src/core"), true);
    assert.equal(globsIntersect(pathAsGlob("src/core"), "src/cores/x"), false);
  });

  it("limits brace expansion and keeps nested alternatives", () => {
    assert.equal(globsIntersect("{a,{b,c}}/x", "c/x"), true);
    assert.equal(globsIntersect("{a,{b,c}}/x", "d/x"), false);
    const many = "{a,b}/{a,b}/{a,b}/{a,b}/{a,b}/{a,b}/{a,b}"; // 128 alternatives: outside the subset
    assert.deepEqual(parseGlob(many), parseGlob("**"));
  });

  it("property: a path matching both globs means globsIntersect is true (soundness)", () => {
    fc.assert(
      fc.property(globArb, globArb, (a, b) => {
        const witness = universe.find((p) => matches(a, p) && matches(b, p));
        if (witness !== undefined) assert.equal(globsIntersect(a, b), true, `${a} and ${b} both match ${witness}`);
      }),
      { numRuns: 400 },
    );
  });

  it("property: on the exact subset, an intersection comes with a witness path (no needless refusals)", () => {
    const segments = ["a", "b", "ab", "ba", "bb", "c.ts", "a.ts", "aab"];
    const paths: string[] = [];
    const grow = (prefix: string, depth: number) => {
      for (const s of segments) {
        const p = prefix === "" ? s : `${prefix}/${s}`;
        paths.push(p);
        if (depth > 1) grow(p, depth - 1);
      }
    };
    grow("", 4);
    const exactSegment = fc.constantFrom("a", "b", "ab", "*", "?", "a*", "*b", "**", "{a,ba}", "*.ts", "?b");
    const shortGlob = fc.array(exactSegment, { minLength: 1, maxLength: 2 }).map((s) => s.join("/"));
    fc.assert(
      fc.property(shortGlob, shortGlob, (a, b) => {
        const witness = paths.some((p) => matches(a, p) && matches(b, p));
        assert.equal(globsIntersect(a, b), witness, `${a} and ${b}`);
      }),
      { numRuns: 300 },
    );
  });

  it("property: globMatchesPath agrees with the reference matcher on the exact subset", () => {
    const exactSegment = fc.constantFrom("a", "b", "ab", "*", "?", "a*", "*b", "**", "{a,ba}", "*.ts", "?b");
    const exactGlob = fc.array(exactSegment, { minLength: 1, maxLength: 3 }).map((s) => s.join("/"));
    fc.assert(
      fc.property(exactGlob, fc.constantFrom(...universe), (glob, path) => {
        assert.equal(globMatchesPath(glob, path), matches(glob, path), `${glob} vs ${path}`);
      }),
      { numRuns: 600 },
    );
  });
});
