// The chat participant's follow-ups read from the person's words (pure): what reaches the worker and what is refused.
import assert from "node:assert/strict";
import { parseFollowUp } from "../../../src/core/chatFollowUp";

describe("chat follow-ups to a running swarm", () => {
  it("reads stop, stop one agent, tell, add task and answer from the person's words", () => {
    assert.deepEqual(parseFollowUp("stop"), { kind: "stop" });
    assert.deepEqual(parseFollowUp("Stop Agent-2 now"), { kind: "stop-agent", agentId: "agent-2" });
    assert.deepEqual(parseFollowUp("tell agent-2: look at mean too"), {
      kind: "tell",
      to: "agent-2",
      text: "look at mean too",
    });
    assert.deepEqual(parseFollowUp("tell the swarm the tests live in test/"), {
      kind: "tell",
      to: "swarm",
      text: "the tests live in test/",
    });
    assert.deepEqual(parseFollowUp("message everyone, stop merging"), {
      kind: "tell",
      to: "swarm",
      text: "stop merging",
    });
    assert.deepEqual(parseFollowUp("add a task Add a test for the empty list"), {
      kind: "add-task",
      text: "Add a test for the empty list",
    });
    assert.deepEqual(parseFollowUp("answer question-3 yes,\nskip NaN"), {
      kind: "answer",
      questionId: "question-3",
      text: "yes,\nskip NaN",
    });
  });

  it("sends nothing for words it does not understand or a command without its text", () => {
    for (const prompt of [
      "agent-2, look at mean too",
      "tell agent-2",
      "add task",
      "answer question-3",
      "tell agent-x hi",
    ])
      assert.deepEqual(parseFollowUp(prompt), { kind: "unknown" }, prompt);
  });
});
