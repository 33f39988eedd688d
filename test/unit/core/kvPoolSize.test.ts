// The pool's size from memory: the share of free memory at the cost per cell, the most all sequences could use,
// and the user's caps, each deciding in turn; the words say which one did.
import assert from "node:assert/strict";
import { poolGranularity, sizeKvPool, type KvPoolInput } from "../../../src/core/kvPoolSize";

const gib = 1024 ** 3;
/** Qwen2.5-0.5B's F16 cell: 24 layers x 2 KV heads x (64 + 64) x 2 bytes. */
const cell = 24 * 2 * 128 * 2;
const base: KvPoolInput = {
  bytesPerCell: cell,
  freeBytes: 8 * gib,
  where: "RAM",
  sequences: 12,
  tokensPerSequence: 1_000_000,
  caps: [],
};

describe("core: the KV pool sized from memory", () => {
  it("takes half the free memory at the cost per cell, in whole 256-cell blocks, and says so", () => {
    const size = sizeKvPool(base);
    const memoryCells = Math.floor((8 * gib * 0.5) / cell);
    assert.equal(size.memoryCells, memoryCells);
    assert.equal(size.cells, Math.floor(memoryCells / 256) * 256);
    assert.equal(size.cells % poolGranularity, 0);
    assert.match(size.origin, /^[\d,]+ cells from 50% of 8\.0 GiB free RAM at 12\.0 KiB per cell/);
  });

  it("fits about twice the cells at Q8_0 (34/64 of F16's bytes) in the same memory", () => {
    const f16 = sizeKvPool(base).cells;
    const q8 = sizeKvPool({ ...base, bytesPerCell: (cell * 34) / 64 }).cells;
    assert.ok(q8 / f16 > 1.87 && q8 / f16 < 1.89, `${q8} / ${f16}`);
  });

  it("follows the free VRAM when the cells live on the GPU", () => {
    const size = sizeKvPool({ ...base, freeBytes: 2 * gib, where: "VRAM" });
    assert.match(size.origin, /of 2\.0 GiB free VRAM/);
    assert.equal(size.cells, Math.floor(gib / cell / 256) * 256);
  });

  it("stops at what every sequence could use", () => {
    const size = sizeKvPool({ ...base, tokensPerSequence: 8192 });
    assert.equal(size.cells, 12 * 8192);
    assert.match(size.origin, /^98,304 cells: all 12 sequences at 8,192 tokens each \(memory allows 50% of/);
  });

  it("keeps a user's cap below what memory allows, to the cell, and names it", () => {
    const size = sizeKvPool({
      ...base,
      caps: [
        { cells: 5000, name: "--kv-cells" },
        { cells: 9000, name: "the recipe" },
      ],
    });
    assert.equal(size.cells, 5000);
    assert.match(size.origin, /^5,000 cells set by --kv-cells; memory allows 50% of 8\.0 GiB/);
  });

  it("lowers a cap that memory cannot hold, and says both numbers", () => {
    const size = sizeKvPool({
      ...base,
      freeBytes: 0.1 * gib,
      caps: [{ cells: 1_000_000, name: "swarmboard.kvCellsBudget" }],
    });
    assert.ok(size.cells < 1_000_000);
    assert.match(size.origin, /cells from free memory, below the 1,000,000 set by swarmboard\.kvCellsBudget/);
  });

  it("never goes below the smallest pool llama.cpp allocates, and says it raised it", () => {
    const size = sizeKvPool({ ...base, freeBytes: 1024 * 1024 });
    assert.equal(size.cells, poolGranularity);
    assert.match(size.origin, /raised to the smallest pool \(256\)/);
  });

  it("refuses nonsense with the number that is wrong", () => {
    assert.throws(() => sizeKvPool({ ...base, bytesPerCell: 0 }), /bytesPerCell must be positive \(got 0\)/);
    assert.throws(() => sizeKvPool({ ...base, memoryShare: 1.5 }), /memoryShare must be in \(0, 1\] \(got 1\.5\)/);
    assert.throws(
      () => sizeKvPool({ ...base, caps: [{ cells: 2.5, name: "--kv-cells" }] }),
      /--kv-cells must be a positive/,
    );
  });
});
