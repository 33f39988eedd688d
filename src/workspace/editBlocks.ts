// The meaning of an edit_file call: search/replace blocks applied in order to a file's text in memory. Each
// block's search must occur exactly once in the text as the blocks before it left it; if any block does not,
// nothing is written and the error names that block, so an agent changes a file without rewriting it and
// never half-applies an edit.

export interface EditBlock {
  readonly search: string;
  readonly replace: string;
}

export type EditOutcome =
  | {
      readonly ok: true;
      readonly text: string;
      /** 1-based line where each block's replacement starts */ readonly lines: number[];
    }
  | { readonly ok: false; readonly code: "not-found" | "not-unique" | "invalid-args"; readonly message: string };

/** The blocks of a call: `edits`, or the single `search`/`replace` pair. */
export function editBlocksOf(args: { search?: string; replace?: string; edits?: readonly EditBlock[] }): EditBlock[] {
  const blocks = [...(args.edits ?? [])];
  if (args.search !== undefined) blocks.unshift({ search: args.search, replace: args.replace ?? "" });
  return blocks;
}

function lineAt(text: string, index: number): number {
  return text.slice(0, index).split("\n").length;
}

/** How a block is named in an error: its number and the start of its search text. */
function blockName(index: number, count: number, block: EditBlock): string {
  const head = block.search.split("\n")[0]!.slice(0, 60);
  return `${count > 1 ? `block ${index + 1} of ${count}` : "the block"} (search starting ${JSON.stringify(head)})`;
}

export function applyEditBlocks(text: string, blocks: readonly EditBlock[], shownPath: string): EditOutcome {
  if (blocks.length === 0) {
    return {
      ok: false,
      code: "invalid-args",
      message: `edit_file on ${shownPath} has no blocks: give edits: [{search, replace}, ...].`,
    };
  }
  let current = text;
  const lines: number[] = [];
  for (const [index, block] of blocks.entries()) {
    const name = blockName(index, blocks.length, block);
    const first = current.indexOf(block.search);
    if (block.search.length === 0 || first < 0) {
      return {
        ok: false,
        code: "not-found",
        message:
          `${name}: the search text was not found in ${shownPath}${index > 0 ? " after the blocks before it" : ""}. ` +
          "It must match exactly, including spaces and line breaks: read the file and copy the text. Nothing was changed.",
      };
    }
    const second = current.indexOf(block.search, first + 1);
    if (second >= 0) {
      let count = 0;
      for (let i = first; i >= 0; i = current.indexOf(block.search, i + 1)) count++;
      return {
        ok: false,
        code: "not-unique",
        message:
          `${name}: the search text occurs ${count} times in ${shownPath} (lines ${lineAt(current, first)}, ` +
          `${lineAt(current, second)}, ...): include more surrounding lines so it matches exactly once. Nothing was changed.`,
      };
    }
    lines.push(lineAt(current, first));
    current = current.slice(0, first) + block.replace + current.slice(first + block.search.length);
  }
  return { ok: true, text: current, lines };
}
