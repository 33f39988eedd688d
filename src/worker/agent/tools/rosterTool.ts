// `roster`: who covers what right now. The trunk carries the planned roster (src/core/roster.ts); this tool
// reads the live one from the board, so an agent can see which angles or tasks others have claimed since.
import { rosterArgs } from "../../../protocol/boardTools";
import type { BoardToolContext } from "./boardTools";
import { defineTool, type CatalogTool } from "./toolDefinition";

export const rosterTool: CatalogTool<BoardToolContext> = defineTool({
  name: "roster",
  kind: "board",
  description:
    "Read the live roster: every agent of the swarm, its role and the claims it holds now (scope and intent). " +
    "Check it before you claim, to take an angle or task nobody covers.",
  args: rosterArgs,
  run: async ({ board, now }) => board.rosterText(now()),
  meaning: (lines) => ({ summary: `roster: ${lines.join(" | ")}`, reply: { roster: lines } }),
});
