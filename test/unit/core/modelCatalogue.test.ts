// The curated catalogue: KV bytes per cell from each architecture, agents that fit a budget (and free memory),
// and names `model pull` accepts.
import assert from "node:assert/strict";
import {
  agentsThatFitCells,
  catalogueFit,
  catalogueLine,
  findCatalogueModel,
  kvBytesPerCell,
  modelCatalogue,
} from "../../../src/core/modelCatalogue";

function entry(id: string) {
  const model = findCatalogueModel(id);
  assert.ok(model, `${id} is in the catalogue`);
  return model;
}

describe("model catalogue", () => {
  it("holds the README's recommended model and the issue's picks, each with a unique id and an hf: URI", () => {
    const ids = modelCatalogue.map((m) => m.id);
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ["qwen2.5-1.5b", "qwen2.5-coder-1.5b", "qwen2.5-coder-7b", "qwen3-4b", "qwen3-8b", "llama3.2-3b"])
      entry(id);
    for (const m of modelCatalogue) assert.match(m.uri, /^hf:[\w.-]+\/[\w.-]+-GGUF:Q4_K_M$/, m.id);
    assert.equal(entry("qwen2.5-1.5b").uri, "hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M");
  });

  it("computes KV bytes per cell from layers x KV heads x head dim x 2 (K and V) x 2 bytes (F16)", () => {
    assert.equal(kvBytesPerCell(entry("qwen2.5-1.5b")), 28 * 2 * 128 * 4); // 28 KiB, as the README says
    assert.equal(kvBytesPerCell(entry("qwen2.5-1.5b")), 28_672);
    assert.equal(kvBytesPerCell(entry("qwen2.5-coder-7b")), 57_344);
    assert.equal(kvBytesPerCell(entry("qwen3-8b")), 147_456);
    assert.equal(kvBytesPerCell(entry("llama3.2-3b")), 114_688);
  });

  it("fits agents by the planned trunk and tail, in shared cells and in copy mode", () => {
    assert.equal(agentsThatFitCells(16_384, "shared-cells"), 14);
    assert.equal(agentsThatFitCells(16_384, "copy-mode"), 5);
    assert.equal(agentsThatFitCells(2_000, "shared-cells"), 0);
  });

  it("says when free memory beside the weights, not the budget, limits the agents", () => {
    const qwen3 = entry("qwen3-8b");
    const roomy = catalogueFit(qwen3, 16_384, "shared-cells", 64e9);
    assert.deepEqual(roomy, { poolBytes: 16_384 * 147_456, agentsThatFit: 14, limitedBy: "budget" });
    // 6 GB free: 5.03 GB of weights leave about 970 MB, 6,578 cells of 144 KiB: 4 agents.
    const tight = catalogueFit(qwen3, 16_384, "shared-cells", 6e9);
    assert.equal(tight.limitedBy, "memory");
    assert.equal(tight.agentsThatFit, 4);
    assert.ok(tight.poolBytes <= 6e9 - qwen3.downloadBytes);
    assert.equal(catalogueFit(qwen3, 16_384, "shared-cells", 4e9).agentsThatFit, 0);
  });

  it("finds a model by id or URI, case-insensitive, and nothing else", () => {
    assert.equal(findCatalogueModel("Qwen3-4B")?.id, "qwen3-4b");
    assert.equal(findCatalogueModel("hf:qwen/qwen3-4b-gguf:q4_k_m")?.id, "qwen3-4b");
    assert.equal(findCatalogueModel("qwen3"), undefined);
    assert.equal(findCatalogueModel("hf:someone/other-GGUF:Q4_K_M"), undefined);
  });

  it("describes a model in one line: download, KV per cell, agents in the budget and the pool's size", () => {
    assert.equal(
      catalogueLine(entry("qwen2.5-1.5b"), 16_384, "shared-cells"),
      "1.0 GiB download, 28.0 KiB KV per cell, 14 agents in 16,384 cells (448 MiB)",
    );
  });
});
