// `model pull --list`: every catalogue model in one row with its download size, KV per cell, the agents that fit
// the budget and the URI `model pull <name>` downloads.
import assert from "node:assert/strict";
import { catalogueTable } from "../../../src/cli/modelCommands";
import { modelCatalogue } from "../../../src/core/modelCatalogue";

describe("cli: model pull --list", () => {
  it("prints one row per catalogue model with what fits the budget", () => {
    const lines = catalogueTable(16_384).split("\n");
    assert.match(lines[0]!, /^name +model +download +KV\/cell +agents in 16,384 cells +uri$/);
    for (const m of modelCatalogue)
      assert.ok(
        lines.some((l) => l.startsWith(m.id + " ") && l.endsWith(m.uri)),
        m.id,
      );
    const qwen = lines.find((l) => l.startsWith("qwen2.5-1.5b "));
    assert.match(qwen ?? "", /1\.0 GiB +28\.0 KiB +14 \(448 MiB\) +hf:Qwen\/Qwen2\.5-1\.5B-Instruct-GGUF:Q4_K_M$/);
    assert.match(catalogueTable(4_096).split("\n")[0]!, /agents in 4,096 cells/);
    assert.ok(catalogueTable(4_096).includes("2 (")); // (4,096 - 2,048) / 1,024
  });
});
