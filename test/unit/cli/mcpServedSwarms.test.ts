// `swarmboard mcp` on the shared server lists the swarms other clients run on its workspace (issue 26): against a
// scripted server peer, a served swarm of this workspace is followed once and shown with its state so far (its trace)
// and what streamed while the trace was read (held, then folded: nothing lost, nothing twice); a served swarm of
// another folder is not listed; and another client's approval request is left to that client (not denied unattended).
import assert from "node:assert/strict";
import { McpSwarms } from "../../../src/cli/mcpSwarms";
import { RpcPeer } from "../../../src/core/rpc/rpcPeer";
import { createInProcessTransportPair } from "../../../src/core/rpc/transport";
import { serverStatusMethod, swarmFollowMethod } from "../../../src/protocol/serverRpc";
import type { SwarmEvent } from "../../../src/protocol/swarmEvents";
import { listSwarmsMethod, pastSwarmEventsMethod, type PastSwarm } from "../../../src/protocol/swarmHistoryRpc";
import { answerApprovalMethod, swarmEventsNotification } from "../../../src/protocol/swarmRpc";

const workspace = "/repo";
const finding = (id: string, text: string): SwarmEvent => ({
  swarmId: "w-1",
  time: 2,
  type: "board-entry",
  entry: { id, kind: "OBSERVED", author: "agent-1", time: 2, scope: { paths: [], globs: [] }, text, refs: [] },
});
const past: PastSwarm = {
  swarmId: "w-1",
  goal: "Watch the workspace",
  recipe: "watch",
  outcome: "running",
  reason: "",
  launchedBy: "vscode",
  createdAt: 1,
  stateDir: "/state/w-1",
  stateDirExists: true,
  integrationBranch: "swarmboard/w-1",
  branches: [],
  findings: 1,
};

describe("cli: swarmboard mcp lists the swarms other clients run on the server", () => {
  it("follows this workspace's served swarm, folds its trace and its stream, and leaves its approvals alone", async () => {
    const [clientSide, serverSide] = createInProcessTransportPair();
    const server = new RpcPeer(serverSide);
    const followed: string[][] = [];
    const answered: string[] = [];
    server.handle(serverStatusMethod, () => ({
      ...{ pid: 1, version: "dev", socket: "/s", startedAt: 0, draining: false, clients: [], rssBytes: 0 },
      ...{ modelLoads: 1, swarms: ["w-1", "elsewhere-1"], idleMinutes: 30 },
    }));
    server.handle(listSwarmsMethod, (p) => ({ swarms: p.workspace === workspace ? [past] : [], problems: [] }));
    server.handle(swarmFollowMethod, ({ swarmIds }) => {
      followed.push(swarmIds);
      // Streamed while the client reads the trace: the finding already in it, a new one and an approval request.
      const ask = { swarmId: "w-1", time: 3, type: "approval-request" as const, requestId: "r-1", agentId: "agent-1" };
      const events = [finding("e-1", "median sorts"), finding("e-2", "median skips NaN")];
      server.notify(swarmEventsNotification, {
        swarmId: "w-1",
        events: [...events, { ...ask, command: "npm test", cwd: workspace, reason: "asks" }],
      });
      return { following: swarmIds };
    });
    server.handle(pastSwarmEventsMethod, () => ({ events: [finding("e-1", "median sorts")], problems: [] }));
    server.handle(answerApprovalMethod, ({ requestId }) => {
      answered.push(requestId);
      return { known: true };
    });
    const client = new RpcPeer(clientSide);
    const options = { workspace, stateRoot: "/state", threads: 1, approveAsks: false, agentRules: false };
    const swarms = new McpSwarms({ ...options, log: () => {} }, client);
    try {
      const status = await swarms.status({});
      assert.ok(status.ok, status.text);
      assert.match(status.text, /^Swarm w-1: /);
      assert.match(status.text, /Goal: Watch the workspace/);
      assert.match(status.text, /Findings: OBSERVED 2/, "the trace's finding once, and the streamed one");
      assert.deepEqual(
        swarms.swarms().map((s) => s.id),
        ["w-1"],
        "another folder's swarm is not listed",
      );
      await swarms.findings({});
      assert.deepEqual(followed, [["w-1"]], "followed once");
      assert.deepEqual(answered, [], "another client's approval is not answered here");
    } finally {
      swarms.dispose();
      client.dispose();
      server.dispose();
    }
  });
});
