// The CLI's launch line says what the swarm's worktrees will take on disk (the swarm-started event's estimate),
// and says nothing about disk for an older trace that has none.
import { strict as assert } from "assert";
import { PassThrough } from "node:stream";
import { TerminalView } from "../../../src/cli/terminalView";
import { describeSwarmDisk } from "../../../src/core/workspaceAccess";
import { swarmEventSchema, type SwarmEvent } from "../../../src/protocol/swarmEvents";

function launchLine(disk?: Extract<SwarmEvent, { type: "swarm-started" }>["disk"]): string {
  const out = new PassThrough();
  const chunks: string[] = [];
  out.on("data", (c: Buffer) => chunks.push(c.toString("utf8")));
  const view = new TerminalView(Object.assign(out, { isTTY: false }) as unknown as NodeJS.WriteStream, false);
  const started = swarmEventSchema.parse({
    swarmId: "s",
    time: 1,
    type: "swarm-started",
    goal: "g",
    recipe: "research",
    mode: "shared-cells",
    model: {
      path: "m.gguf",
      architecture: "llama",
      layers: 1,
      heads: 1,
      kvHeads: 1,
      keyHeadDim: 8,
      valueHeadDim: 8,
      kvType: "F16",
      kvBytesPerCell: 32,
      trainContextSize: 128,
      vocabularySize: 512,
    },
    trunkTokens: 10,
    ...(disk ? { disk } : {}),
  });
  view.onEvents([started]);
  return chunks.join("").split("\n")[0] ?? "";
}

describe("CLI launch line: the swarm's disk", () => {
  it("ends with the estimate: the shared view plus one checkout per writing agent", () => {
    const checkoutBytes = 12 * 1024 * 1024;
    const text = describeSwarmDisk(checkoutBytes, 2);
    const line = launchLine({ checkoutBytes, writers: 2, estimateBytes: 3 * checkoutBytes, text });
    assert.match(line, /^swarm s: recipe research, .*trunk 10 tokens decoded once; disk: up to 36\.0 MiB of worktrees/);
    assert.ok(line.endsWith("(3 checkout(s) of 12.0 MiB: the shared read view and 2 writing agents)"), line);
  });

  it("says nothing about disk when the event has no estimate", () => {
    assert.doesNotMatch(launchLine(), /disk/);
  });
});
