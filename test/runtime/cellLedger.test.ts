// The ledger against a brute-force model of llama.cpp's cells (each cell a set of owning sequences), over random
// histories of forks, growth and releases, in both modes.
import assert from "node:assert/strict";
import fc from "fast-check";
import type { RuntimeMode } from "../../src/protocol/runtime";
import { CellLedger } from "../../src/runtime/local/cellLedger";

// A fork with `at` copies only the parent's first tokens (a second swarm's trunk forking the start it shares).
type Op =
  | { kind: "fork"; from: number; at?: number }
  | { kind: "grow"; who: number; count: number }
  | { kind: "remove"; who: number };

/** Cells as llama.cpp keeps them: seq_cp adds an owner (unified) or copies (split); seq_rm drops an owner. */
class CellModel {
  readonly cells = new Map<string, Set<string>[]>();

  constructor(private readonly mode: RuntimeMode) {}

  addRoot(id: string): void {
    this.cells.set(id, []);
  }

  fork(child: string, parent: string, upTo?: number): void {
    const parentCells = (this.cells.get(parent) ?? []).slice(0, upTo);
    const childCells = this.mode === "shared-cells" ? parentCells.slice() : parentCells.map(() => new Set<string>());
    for (const cell of childCells) cell.add(child);
    this.cells.set(child, childCells);
  }

  grow(id: string, count: number): void {
    for (let i = 0; i < count; i++) this.cells.get(id)?.push(new Set([id]));
  }

  remove(id: string): void {
    for (const cell of this.cells.get(id) ?? []) cell.delete(id);
    this.cells.delete(id);
  }

  used(): number {
    const live = new Set<Set<string>>();
    for (const cells of this.cells.values()) for (const cell of cells) live.add(cell);
    return live.size;
  }

  privateCells(id: string): number {
    return (this.cells.get(id) ?? []).filter((cell) => cell.size === 1).length;
  }
}

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("fork" as const), from: fc.nat(20) }),
  fc.record({ kind: fc.constant("fork" as const), from: fc.nat(20), at: fc.nat(60) }),
  fc.record({ kind: fc.constant("grow" as const), who: fc.nat(20), count: fc.integer({ min: 1, max: 9 }) }),
  fc.record({ kind: fc.constant("remove" as const), who: fc.nat(20) }),
);

function replay(mode: RuntimeMode, ops: readonly Op[]): void {
  const ledger = new CellLedger(mode);
  const model = new CellModel(mode);
  const live = ["trunk"];
  ledger.addRoot("trunk");
  model.addRoot("trunk");
  let next = 1;
  for (const op of ops) {
    if (op.kind === "fork") {
      const parent = live[op.from % live.length];
      const child = `s${next++}`;
      const upTo = op.at === undefined ? undefined : op.at % (ledger.sequenceCells(parent) + 1);
      ledger.fork(child, parent, upTo);
      model.fork(child, parent, upTo);
      live.push(child);
    } else if (op.kind === "grow") {
      const who = live[op.who % live.length];
      ledger.take(who, op.count);
      ledger.commit(who, op.count);
      model.grow(who, op.count);
    } else if (live.length > 1) {
      const [who] = live.splice(op.who % live.length, 1);
      ledger.remove(who);
      model.remove(who);
    }
    assert.equal(ledger.usedCells(), model.used(), "used cells");
    for (const id of live) {
      assert.equal(ledger.privateCells(id), model.privateCells(id), `private cells of ${id}`);
      assert.equal(ledger.sequenceCells(id), model.cells.get(id)?.length, `cells of ${id}`);
      if (mode === "copy-mode") assert.equal(ledger.writtenCells(id), ledger.sequenceCells(id), `written by ${id}`);
    }
  }
}

describe("cell ledger", () => {
  for (const mode of ["shared-cells", "copy-mode"] as const) {
    it(`agrees with a cell-by-cell model of llama.cpp in ${mode}`, () => {
      fc.assert(
        fc.property(fc.array(opArbitrary, { maxLength: 40 }), (ops) => replay(mode, ops)),
        { numRuns: 300 },
      );
    });
  }

  it("counts the trunk's readers and forgets cells in flight that were given back", () => {
    const ledger = new CellLedger("shared-cells");
    ledger.addRoot("trunk");
    ledger.take("trunk", 10);
    ledger.commit("trunk", 10);
    ledger.fork("a", "trunk");
    ledger.fork("b", "trunk");
    ledger.fork("c", "a");
    assert.equal(ledger.readersOf("trunk"), 3);
    ledger.take("a", 4);
    assert.equal(ledger.inFlightCells(), 4);
    ledger.giveBack("a", 4);
    assert.equal(ledger.inFlightCells(), 0);
    assert.equal(ledger.usedCells(), 10);
  });
});
