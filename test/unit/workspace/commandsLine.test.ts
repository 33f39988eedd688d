// Where agent commands cannot run in a sandbox (macOS, Windows, or a Linux without a usable bubblewrap), the swarm
// says so at its start, in the CLI's start line and the panel (issue 27): the same line from the probe, carried by
// the swarm-started event through the view and the panel's projection, and refused by neither schema.
import assert from "node:assert/strict";
import { emptySwarm, reduceSwarm } from "../../../src/core/swarmView";
import { projectSwarm } from "../../../src/host/panel/panelProjection";
import { swarmEventSchema, type SwarmEvent } from "../../../src/protocol/swarmEvents";
import { swarmPanelViewSchema } from "../../../src/protocol/webviewMessages";
import { commandsLine, probeBubblewrap } from "../../../src/workspace/bubblewrap";

function started(commands: string): SwarmEvent {
  const model = {
    ...{ path: "/m/tiny.gguf", architecture: "llama", layers: 2, heads: 4, kvHeads: 2, keyHeadDim: 8 },
    ...{ valueHeadDim: 8, kvType: "F16", kvBytesPerCell: 128, trainContextSize: 2048, vocabularySize: 512 },
  };
  return swarmEventSchema.parse({
    type: "swarm-started",
    swarmId: "s",
    time: 1,
    goal: "g",
    recipe: "organisation",
    mode: "shared-cells",
    model,
    trunkTokens: 10,
    commands,
  });
}

describe("the swarm says how agent commands run", () => {
  it("on macOS and Windows: no sandbox on this platform, every command asks", async () => {
    for (const platform of ["darwin", "win32"] as const) {
      const line = commandsLine(await probeBubblewrap(platform));
      assert.match(line, new RegExp(`^no sandbox on this platform \\(${platform}\\)`));
      assert.match(line, /every command asks for approval/);
    }
  });

  it("with bubblewrap that cannot build its sandbox: no sandbox, every command asks, and why", () => {
    const reason =
      "/usr/bin/bwrap is installed but cannot create its sandbox here: No permissions to create new namespace";
    const line = commandsLine({ usable: false, installed: true, reason });
    assert.equal(line, `no sandbox, so every agent command asks for approval: ${reason}`);
  });

  it("with a usable bubblewrap: in the sandbox", () => {
    assert.match(commandsLine({ usable: true, binary: "/usr/bin/bwrap" }), /^agent commands run in the sandbox/);
  });

  it("carries the line from the swarm-started event to the panel", async () => {
    const line = commandsLine(await probeBubblewrap("darwin"));
    const view = [started(line)].reduce(reduceSwarm, emptySwarm("s", 0));
    assert.equal(view.commands, line);
    const panel = swarmPanelViewSchema.parse(projectSwarm(view));
    assert.equal(panel.commands, line);
    assert.equal(projectSwarm(emptySwarm("s", 0)).commands, undefined, "an older trace without it shows nothing");
  });
});
