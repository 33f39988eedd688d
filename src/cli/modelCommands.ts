// `swarmboard model pull`: downloads a GGUF by URI, URL or catalogue name (resumable, with progress), and
// `model pull --list` prints the curated catalogue of instruct models with native tool calling and what fits.
import { catalogueFit, findCatalogueModel, formatSize, kvBytesPerCell, modelCatalogue } from "../core/modelCatalogue";
import { pullModelFile } from "../worker/modelFiles";
import type { PullListOptions, PullOptions } from "./args";

/** The budget `run` uses when neither the recipe nor --kv-cells says otherwise. */
const defaultKvCells = 16_384;

export async function pullCommand(opts: PullOptions): Promise<number> {
  const named = findCatalogueModel(opts.uri);
  const uri = named?.uri ?? opts.uri;
  if (named) process.stderr.write(`${named.label}: ${uri}\n`);
  let last = 0;
  const file = await pullModelFile(uri, opts.dir, ({ downloadedBytes, totalBytes }) => {
    const pct = totalBytes > 0 ? Math.floor((downloadedBytes / totalBytes) * 100) : 0;
    if (pct !== last) process.stderr.write(`\rdownloading ${pct}%`);
    last = pct;
  });
  process.stdout.write(`\n${file}\n`);
  return 0;
}

/** The catalogue as a table: name, download, KV per cell, agents in the budget (shared cells), URI. */
export function catalogueTable(kvCells: number): string {
  const rows = modelCatalogue.map((m) => {
    const fit = catalogueFit(m, kvCells, "shared-cells");
    return [
      m.id,
      m.label,
      formatSize(m.downloadBytes),
      formatSize(kvBytesPerCell(m)),
      `${fit.agentsThatFit} (${formatSize(fit.poolBytes)})`,
      m.uri,
    ];
  });
  const header = ["name", "model", "download", "KV/cell", `agents in ${kvCells.toLocaleString("en-US")} cells`, "uri"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [
    line(header),
    ...rows.map(line),
    "",
    `Agents: a 2,048-cell shared context and 1,024 cells per agent, with shared cells (copy mode fits fewer).`,
    `Pull one by name: swarmboard model pull ${modelCatalogue[0]!.id}`,
  ].join("\n");
}

export function pullListCommand(opts: PullListOptions): number {
  process.stdout.write(catalogueTable(opts.kvCells ?? defaultKvCells) + "\n");
  return 0;
}
