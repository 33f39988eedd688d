import { strict as assert } from "assert";
import fc from "fast-check";
import type { Scope } from "../../../src/protocol/board";
import { claimEntry, ClaimTable, conflictNotices, releaseEntry, type ClaimRequest } from "../../../src/core/claims";
import { scopesOverlap } from "../../../src/core/scopes";
import { referenceMatches } from "./globReference";

const scope = (s: Partial<Scope>): Scope => ({ paths: [], globs: [], ...s });
const req = (claimId: string, agent: string, s: Partial<Scope>, now = 0): ClaimRequest => ({
  claimId,
  agent,
  scope: scope(s),
  now,
});

describe("claims", () => {
  const cases: Array<{ name: string; a: Partial<Scope>; b: Partial<Scope>; overlap: boolean }> = [
    { name: "same task", a: { taskId: "t1" }, b: { taskId: "t1" }, overlap: true },
    { name: "different tasks", a: { taskId: "t1" }, b: { taskId: "t2" }, overlap: false },
    { name: "same path", a: { paths: ["src/a.ts"] }, b: { paths: ["./src/a.ts"] }, overlap: true },
    { name: "different paths", a: { paths: ["src/a.ts"] }, b: { paths: ["src/b.ts"] }, overlap: false },
    { name: "folder and a file in it", a: { paths: ["src"] }, b: { paths: ["src/a.ts"] }, overlap: true },
    {
      name: "path with a common prefix is not inside",
      a: { paths: ["src/a"] },
      b: { paths: ["src/ab.ts"] },
      overlap: false,
    },
    { name: "glob covering a path", a: { globs: ["src/*.ts"] }, b: { paths: ["src/a.ts"] }, overlap: true },
    { name: "glob missing a path", a: { globs: ["src/*.ts"] }, b: { paths: ["test/a.ts"] }, overlap: false },
    { name: "intersecting globs", a: { globs: ["src/**/*.ts"] }, b: { globs: ["src/core/*"] }, overlap: true },
    { name: "disjoint globs", a: { globs: ["src/**/*.ts"] }, b: { globs: ["src/**/*.md"] }, overlap: false },
    {
      name: "unsupported glob is treated as overlapping",
      a: { globs: ["src/+(a|b).ts"] },
      b: { paths: ["docs/x.md"] },
      overlap: true,
    },
    { name: "task and files are different axes", a: { taskId: "t1" }, b: { paths: ["src/a.ts"] }, overlap: false },
    {
      name: "same task, different files",
      a: { taskId: "t1", paths: ["a"] },
      b: { taskId: "t1", paths: ["b"] },
      overlap: true,
    },
    {
      name: "different tasks, same file",
      a: { taskId: "t1", paths: ["a"] },
      b: { taskId: "t2", paths: ["a"] },
      overlap: true,
    },
  ];
  for (const c of cases) {
    it(`overlap case: ${c.name} -> ${c.overlap ? "refused" : "granted"}`, () => {
      assert.equal(scopesOverlap(scope(c.a), scope(c.b)).overlap, c.overlap);
      const table = new ClaimTable({ leaseMs: 1000 });
      assert.equal(table.claim(req("c1", "alice", c.a)).granted, true);
      const second = table.claim(req("c2", "bob", c.b));
      assert.equal(second.granted, !c.overlap);
      if (!second.granted) {
        assert.equal(second.conflicts[0].holder.agent, "alice");
        assert.match(second.reason, /overlaps alice's claim c1/);
      }
    });
  }

  it("lets an agent widen its own work and refuses an empty scope or a reused id", () => {
    const table = new ClaimTable({ leaseMs: 1000 });
    assert.equal(table.claim(req("c1", "alice", { paths: ["src"] })).granted, true);
    assert.equal(table.claim(req("c2", "alice", { paths: ["src/a.ts"] })).granted, true);
    const empty = table.claim(req("c3", "bob", {}));
    assert.equal(empty.granted, false);
    assert.match(empty.granted ? "" : empty.reason, /must name a task, paths or globs/);
    const reused = table.claim(req("c1", "bob", { paths: ["other"] }));
    assert.equal(reused.granted, false);
  });

  it("tells both agents about a refused claim", () => {
    const table = new ClaimTable({ leaseMs: 1000 });
    table.claim(req("c1", "alice", { paths: ["src/a.ts"] }));
    const request = req("c2", "bob", { globs: ["src/*.ts"] });
    const notices = conflictNotices(request, table.claim(request));
    assert.deepEqual(
      notices.map((n) => n.to),
      ["bob", "alice"],
    );
    assert.match(notices[0].text, /refused/);
    assert.match(notices[1].text, /bob tried to claim src\/\*\.ts/);
  });

  it("renews leases while there is progress and lets them run out otherwise", () => {
    const table = new ClaimTable({ leaseMs: 100 });
    table.claim(req("c1", "alice", { taskId: "t" }, 0));
    assert.equal(table.renew("c1", 50)?.leaseUntil, 150);
    assert.equal(table.renewAgent("alice", 120).length, 1);
    assert.equal(table.claim(req("c2", "bob", { taskId: "t" }, 200)).granted, false, "renewed at 120, lives until 220");
    assert.equal(table.renew("c1", 220), undefined, "a lease that ran out cannot be renewed");
    assert.equal(table.claim(req("c3", "bob", { taskId: "t" }, 221)).granted, true, "an expired lease does not block");
    assert.deepEqual(
      table.expire(221).map((l) => l.claimId),
      ["c1"],
    );
    assert.deepEqual(
      table.active(221).map((l) => l.claimId),
      ["c3"],
    );
  });

  it("releases one claim, or all of an agent's claims when it finishes, fails or stalls", () => {
    const table = new ClaimTable({ leaseMs: 1000 });
    table.claim(req("c1", "alice", { taskId: "a" }));
    table.claim(req("c2", "alice", { taskId: "b" }));
    table.claim(req("c3", "bob", { taskId: "c" }));
    assert.equal(table.release("c1")?.agent, "alice");
    assert.deepEqual(
      table.releaseAgent("alice").map((l) => l.claimId),
      ["c2"],
    );
    assert.deepEqual(
      table.active(0).map((l) => l.claimId),
      ["c3"],
    );
    assert.equal(table.claim(req("c4", "bob2", { taskId: "b" })).granted, true);
  });

  it("rebuilds the same table from CLAIM and RELEASE entries", () => {
    const table = new ClaimTable({ leaseMs: 1000 });
    const a = table.claim(req("c1", "alice", { paths: ["a"] }, 5));
    const b = table.claim(req("c2", "bob", { paths: ["b"] }, 6));
    assert.ok(a.granted && b.granted);
    const entries = [
      claimEntry(a.lease, "fix a"),
      claimEntry(b.lease, "fix b"),
      releaseEntry(a.lease, "r1", 9, "finished"),
    ];
    const rebuilt = ClaimTable.fromBoard(entries, { leaseMs: 1000 });
    assert.deepEqual(rebuilt.active(10), [b.lease]);
  });

  it("property: two overlapping claims of different agents are never both granted", () => {
    const files = ["a", "b", "a/x.ts", "a/y.md", "b/x.ts", "c/z.ts"];
    const scopeArb = fc.record({
      taskId: fc.option(fc.constantFrom("t1", "t2"), { nil: undefined }),
      paths: fc.subarray(files, { maxLength: 2 }),
      globs: fc.subarray(["a/*", "**/*.ts", "*/x.ts", "b/**", "c/?.ts", "{a,c}/*.md"], { maxLength: 2 }),
    });
    const op = fc.oneof(
      fc.record({
        kind: fc.constant("claim" as const),
        agent: fc.constantFrom("p", "q", "r"),
        scope: scopeArb,
        dt: fc.integer({ min: 0, max: 30 }),
      }),
      fc.record({ kind: fc.constant("release" as const), index: fc.nat() }),
    );
    // Ground truth by brute force over concrete files: two scopes overlap if they share a task or a file.
    const universe = ["a", "b", "a/x.ts", "a/y.md", "b/x.ts", "c/z.ts", "c/q.ts", "c/n.md", "a/q/x.ts", "b/c", "q.ts"];
    const covers = (s: Scope, f: string) =>
      s.paths.some((p) => f === p || f.startsWith(p + "/")) || s.globs.some((g) => referenceMatches(g, f));
    const reallyOverlap = (x: Scope, y: Scope) =>
      (x.taskId !== undefined && x.taskId === y.taskId) || universe.some((f) => covers(x, f) && covers(y, f));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        const table = new ClaimTable({ leaseMs: 100 });
        let now = 0;
        ops.forEach((o, i) => {
          if (o.kind === "claim") {
            now += o.dt;
            table.claim({ claimId: `c${i}`, agent: o.agent, scope: o.scope, now });
          } else {
            const live = table.active(now);
            if (live.length > 0) table.release(live[o.index % live.length].claimId);
          }
          const live = table.active(now);
          for (const x of live) {
            for (const y of live) {
              if (x.agent !== y.agent)
                assert.ok(
                  !reallyOverlap(x.scope, y.scope),
                  `${x.claimId} and ${y.claimId} overlap and are both granted`,
                );
            }
          }
        });
      }),
      { numRuns: 300 },
    );
  });
});
