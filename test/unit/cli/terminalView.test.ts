// The CLI's live block is a projection of the same swarm view as the extension's: its agent rows show the
// claim of the agent's CLAIM entry and its latest tool result.
import { strict as assert } from "assert";
import { PassThrough } from "node:stream";
import { budgetLine, TerminalView } from "../../../src/cli/terminalView";
import type { SwarmStats } from "../../../src/protocol/runtime";
import type { SwarmEvent } from "../../../src/protocol/swarmEvents";

const at = { swarmId: "s", time: 1 };

describe("terminal view", () => {
  it("draws each agent's row from the reduced swarm view", () => {
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on("data", (c: Buffer) => chunks.push(c.toString("utf8")));
    const view = new TerminalView(Object.assign(out, { isTTY: true }) as unknown as NodeJS.WriteStream, true);
    const events: SwarmEvent[] = [
      { ...at, type: "agent-added", agent: { id: "agent-1", role: "worker", branch: "b1" } },
      { ...at, type: "agent-state", agentId: "agent-1", state: "claim" },
      { ...at, type: "agent-text", agentId: "agent-1", text: "claim {}", tokens: 7 },
      { ...at, type: "tool-result", agentId: "agent-1", callId: "c1", ok: true, summary: "claimed src/stats.js" },
      {
        ...at,
        type: "board-entry",
        entry: {
          id: "agent-1-1",
          kind: "CLAIM",
          author: "agent-1",
          time: 1,
          scope: { paths: ["src/median.js"], globs: [] },
          text: "fix",
          refs: [],
        },
      },
    ];
    view.onEvents(events);
    const row = chunks
      .join("")
      .split("\n")
      .find((l) => l.includes("agent-1 ") && l.includes("tok"));
    assert.ok(row, `an agent row in ${JSON.stringify(chunks)}`);
    assert.match(row, /agent-1\s+claim\s+src\/median\.js\s+7 tok/);
    assert.match(row, /claimed src\/stats\.js$/);
  });

  it("prints a standing swarm's latency per request in a log: when a request lands, and per kind at the end", () => {
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on("data", (c: Buffer) => chunks.push(c.toString("utf8")));
    const view = new TerminalView(out as unknown as NodeJS.WriteStream, false);
    const counts = { dropped: 0, direct: 0, router: 1 };
    const decision = { action: "assign" as const, task: "fix it" };
    const trigger = { id: "t1", source: "diagnostic" as const, fingerprint: "t1", time: 0, text: "x is undefined" };
    view.onEvents([
      { swarmId: "s", time: 1_000, type: "trigger", trigger, route: { route: "router" }, counts },
      { swarmId: "s", time: 3_000, type: "trigger-decision", triggerId: "t1", by: "router-1", decision },
      {
        swarmId: "s",
        time: 4_000,
        type: "trigger-decision",
        triggerId: "t1",
        by: "agent-2",
        decision,
        agentId: "agent-2",
      },
      { swarmId: "s", time: 13_400, type: "agent-state", agentId: "agent-2", state: "done" },
      { swarmId: "s", time: 20_000, type: "swarm-ended", outcome: "stopped", reason: "stopped by the user" },
    ]);
    const lines = chunks.join("").split("\n");
    const latency = "  latency per request: diagnostic: p50 12.4 s, p95 12.4 s (1 landed; dispatch p50 2.0 s)";
    assert.deepEqual(
      lines.filter((l) => l.includes("latency")),
      [latency, latency],
    );
    assert.equal(lines[lines.indexOf("swarm stopped: stopped by the user") - 1], latency);
  });

  it("says in the budget line the GPU device, the layers offloaded and where the KV lives", () => {
    const stats = {
      mode: "copy-mode",
      kvType: "F16",
      bytesPerCell: 640,
      usedCells: 10,
      poolCells: 100,
      usedBytes: 6400,
      trunkCells: 5,
      trunkOwners: 0,
      freeCells: 90,
      tokensPerSecond: 1,
      rowsPerDispatch: 2,
      placement: {
        backend: "vulkan",
        devices: ["llvmpipe (LLVM 15.0.6, 256 bits)"],
        gpuLayers: 6,
        modelLayers: 6,
        kvOn: "vram",
      },
    } as SwarmStats;
    assert.match(
      budgetLine(stats),
      /^KV copy-mode F16 640 B\/cell on vulkan \(llvmpipe \(LLVM 15\.0\.6, 256 bits\)\) 6\/6 layers, KV in vram: 10\/100 cells/,
    );
    const cpu = { ...stats, placement: { backend: "cpu", devices: [], gpuLayers: 0, modelLayers: 6, kvOn: "ram" } };
    assert.match(budgetLine(cpu as SwarmStats), /^KV copy-mode F16 640 B\/cell on cpu: 10\/100 cells/);
  });
});
