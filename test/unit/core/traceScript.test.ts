// A trace's calls turned back into a turn script (src/core/traceScript.ts): well-formed calls with their arguments
// as recorded, the thinking before a call, and malformed calls replayed so that they fail the same way.
import assert from "node:assert/strict";
import { overrunTail, scriptFromTrace } from "../../../src/core/traceScript";
import type { SwarmEvent } from "../../../src/protocol/swarmEvents";

const at = { swarmId: "s", time: 0 };
const call = (callId: string, tool: string, args: unknown, thought?: string): SwarmEvent => ({
  ...at,
  type: "tool-call",
  agentId: "agent-1",
  callId,
  tool,
  args,
  ...(thought ? { thought } : {}),
});
const result = (callId: string, summary: string): SwarmEvent => ({
  ...at,
  type: "tool-result",
  agentId: "agent-1",
  callId,
  ok: false,
  summary,
});

describe("core: scriptFromTrace", () => {
  it("gives each call its recorded arguments and the thinking before it", () => {
    const script = scriptFromTrace([call("c1", "read_file", { path: "a.js" }, "look first")]);
    assert.deepEqual(script.agents["agent-1"], [
      { tool: "read_file", args: {}, rawArgs: '{"path":"a.js"}', think: "look first" },
    ]);
  });

  it("replays a call that ran past the agent's room as the same tool, overrunning the same room", () => {
    const script = scriptFromTrace([
      call("c1", "(malformed)", 'read_file {"path":"aaaa'),
      result("c1", "invalid-call: the arguments of read_file did not fit: you have room for 12 more tokens (...)"),
    ]);
    assert.deepEqual(script.agents["agent-1"], [
      { tool: "read_file", args: {}, rawArgs: '{"path":"aaaa' + overrunTail(12) },
    ]);
    assert.equal(overrunTail(12).length, 13);
  });

  it("replays any other malformed call as its text given to finish, which refuses it", () => {
    const script = scriptFromTrace([
      call("c1", "(malformed)", '{"scope": '),
      result("c1", "invalid-args: the arguments of claim are not JSON"),
      call("c2", "(malformed)", 'read_file {"path":"cut'),
      result("c2", "invalid-call: read_file: the call was cut off"),
    ]);
    assert.deepEqual(script.agents["agent-1"], [
      { tool: "finish", args: {}, rawArgs: '{"scope": ' },
      { tool: "finish", args: {}, rawArgs: 'read_file {"path":"cut' },
    ]);
  });
});
