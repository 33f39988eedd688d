// `swarmboard model pull`: downloads a GGUF by URI, URL or catalogue name (resumable, with progress), and
// `model pull --list` prints the curated catalogue of instruct models with native tool calling and what fits.
import { catalogueFit, findCatalogueModel, formatSize, kvBytesPerCell, modelCatalogue } from "../core/modelCatalogue";
import { pullModelFile } from "../worker/modelFiles";
import type { PullListOptions, PullOptions } from "./args";
import { InputError } from "./inputChecks";

/** The budget `run` uses when neither the recipe nor --kv-cells says otherwise. */
const defaultKvCells = 16_384;

/** What `model pull` takes besides a catalogue name: a Hugging Face URI or an http(s) URL. */
const pullableUri = /^(hf:|huggingface:|https?:\/\/)/i;

export async function pullCommand(opts: PullOptions): Promise<number> {
  const named = findCatalogueModel(opts.uri);
  if (!named && !pullableUri.test(opts.uri))
    throw new InputError(
      `"${opts.uri}" is not a model in the catalogue (${modelCatalogue.map((m) => m.id).join(", ")}), nor a ` +
        "Hugging Face URI (hf:<user>/<repo>:<quant>) or an https URL. `swarmboard model pull --list` shows the catalogue.",
    );
  const uri = named?.uri ?? opts.uri;
  if (named) process.stderr.write(`${named.label}: ${uri}\n`);
  let last = 0;
  try {
    const file = await pullModelFile(
      uri,
      opts.dir,
      ({ downloadedBytes, totalBytes }) => {
        const pct = totalBytes > 0 ? Math.floor((downloadedBytes / totalBytes) * 100) : 0;
        if (pct !== last) process.stderr.write(`\rdownloading ${pct}%`);
        last = pct;
      },
      undefined,
      {
        ...(opts.timeoutSeconds ? { timeoutSeconds: opts.timeoutSeconds } : {}),
        ...(named ? { expectedBytes: named.downloadBytes } : {}),
      },
    );
    process.stdout.write(`\n${file}\n`);
    return 0;
  } catch (error) {
    if (last > 0) process.stderr.write("\n");
    throw error;
  } finally {
    // A given-up download can leave the downloader's socket open: once the pull has answered, the CLI leaves.
    setTimeout(() => process.exit(), 2000).unref();
  }
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
