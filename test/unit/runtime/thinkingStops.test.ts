// Where a family's free text ends: the tags of the piece between the text and the call, and the call syntax's
// first word after them when it starts with a sign (so ordinary prose never stops on "call:").
import { strict as assert } from "assert";
import { turnScriptSchema } from "../../../src/protocol/turnScript";
import { stopStrings } from "../../../src/runtime/turnPieces";

const special = (value: string) => ({ type: "specialTokensText" as const, value });

describe("thinking stops and scripted thoughts", () => {
  it("takes each family's landmarks from its to-call piece", () => {
    assert.deepEqual(stopStrings([special("\n</think><tool_call>"), '\n{"name": "']), [
      "</think>",
      "<tool_call>",
      '{"name":',
    ]);
    assert.deepEqual(stopStrings([special("[TOOL_CALLS]")]), ["[TOOL_CALLS]"]);
    assert.deepEqual(stopStrings([special("<channel|><|tool_call>call:")]), ["<channel|>", "<|tool_call>"]);
    assert.deepEqual(stopStrings([special("\n</think>"), "||call: "]), ["</think>", "||call:"]);
    assert.deepEqual(stopStrings([special("\n\n<tool_call>\n<function=")]), ["<tool_call>", "<function="]);
  });

  it("checks a script's thought: text, or left out", () => {
    const ok = turnScriptSchema.safeParse({ agents: { "agent-1": [{ tool: "finish", args: {}, think: "Done." }] } });
    assert.ok(ok.success);
    const empty = turnScriptSchema.safeParse({ agents: { "agent-1": [{ tool: "finish", args: {}, think: "" }] } });
    assert.equal(empty.success, false);
    assert.match(JSON.stringify(empty.error?.issues), /expected thinking text \(leave think out/);
  });
});
