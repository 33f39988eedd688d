// The pure parts of steering: the pause switch (an agent waits until resumed, stopped or out of time, and its claims
// are renewed meanwhile) and the ask_user wait (answered, timed out, withdrawn, or nobody to ask). The whole of it
// runs on the real runtime in test/swarm/steering.test.ts.
import assert from "node:assert/strict";
import { AgentPauses } from "../../../src/worker/agent/agentPauses";
import type { AgentEventDraft } from "../../../src/worker/agent/agentEventDraft";
import { SwarmQuestions } from "../../../src/worker/agent/swarmQuestions";
import { askUserTool } from "../../../src/worker/agent/tools/askUserTool";

describe("the pause switch of one agent", () => {
  it("says whether a pause or resume changed anything", () => {
    const pauses = new AgentPauses();
    assert.equal(pauses.pause("agent-1"), true);
    assert.equal(pauses.pause("agent-1"), false);
    assert.equal(pauses.isPaused("agent-1"), true);
    assert.equal(pauses.isPaused("agent-2"), false);
    assert.equal(pauses.resume("agent-1"), true);
    assert.equal(pauses.resume("agent-1"), false);
  });

  it("holds a paused agent until it is resumed, and returns at once for one that is not paused", async () => {
    const pauses = new AgentPauses();
    const signal = new AbortController().signal;
    assert.equal(await pauses.waitWhilePaused("agent-1", signal, undefined, () => undefined), "resumed");
    pauses.pause("agent-1");
    let ended = false;
    const waiting = pauses
      .waitWhilePaused("agent-1", signal, undefined, () => undefined)
      .then((end) => {
        ended = true;
        return end;
      });
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(ended, false, "it still waits");
    pauses.resume("agent-1");
    assert.equal(await waiting, "resumed");
  });

  it("ends the wait when the agent is stopped or its time runs out, renewing its claims as it goes", async () => {
    const pauses = new AgentPauses();
    pauses.pause("agent-1");
    const stop = new AbortController();
    const stopped = pauses.waitWhilePaused("agent-1", stop.signal, undefined, () => undefined);
    stop.abort();
    assert.equal(await stopped, "aborted");
    let renewed = 0;
    const end = await pauses.waitWhilePaused("agent-1", new AbortController().signal, 20, () => renewed++);
    assert.equal(end, "time");
    assert.ok(renewed >= 1, "its claims were renewed");
  });
});

describe("an agent's question to the person", () => {
  const collect = () => {
    const events: AgentEventDraft[] = [];
    return { events, emit: (e: AgentEventDraft) => void events.push(e) };
  };

  it("brings the answer back and ends the question as answered", async () => {
    const { events, emit } = collect();
    const questions = new SwarmQuestions(emit, 60_000);
    const asked = questions.ask("agent-1", "Keep the API?");
    assert.deepEqual(events[0], {
      type: "user-question",
      questionId: "question-1",
      agentId: "agent-1",
      question: "Keep the API?",
      timeoutMs: 60_000,
    });
    assert.equal(questions.answer("question-1", "yes"), true);
    assert.deepEqual(await asked, { answered: true, questionId: "question-1", answer: "yes" });
    assert.equal(questions.answer("question-1", "no"), false, "an ended question takes no second answer");
    assert.deepEqual(events.at(-1), {
      type: "user-question-ended",
      questionId: "question-1",
      agentId: "agent-1",
      outcome: "answered",
      answer: "yes",
    });
  });

  it("tells the agent no answer came in time, or that nobody can answer, or that it is stopping", async () => {
    const { events, emit } = collect();
    const timed = await new SwarmQuestions(emit, 30).ask("agent-1", "Which file?");
    assert.deepEqual(timed, {
      answered: false,
      questionId: "question-1",
      note: "No answer within 0 s: go on with your best judgement.",
    });
    const nobody = await new SwarmQuestions(emit, 0).ask("agent-1", "Which file?");
    assert.equal(nobody.answered, false);
    assert.match(nobody.answered ? "" : nobody.note, /Nobody can answer questions in this swarm/);
    const stop = new AbortController();
    const questions = new SwarmQuestions(emit, 60_000);
    const withdrawn = questions.ask("agent-2", "Which file?", stop.signal);
    stop.abort();
    const end = await withdrawn;
    assert.equal(end.answered ? "" : end.note, "The question was withdrawn: you are stopping.");
    const ends = events
      .filter((e) => e.type === "user-question-ended")
      .map((e) => e.type === "user-question-ended" && e.outcome);
    assert.deepEqual(ends, ["timed-out", "withdrawn"]);
  });

  it("is a tool whose answer the agent reads, and which says plainly when nobody can be asked", async () => {
    const asked = await askUserTool.call(
      { askUser: async () => ({ answered: true, questionId: "question-4", answer: "use src/" }) },
      { question: "Where?" },
    );
    assert.equal(asked.ok, true);
    assert.deepEqual(asked.result, { from: "user", answer: "use src/" });
    assert.equal(asked.summary, "the person answered question-4: use src/");
    const alone = await askUserTool.call({}, { question: "Where?" });
    assert.equal(alone.ok, false);
    assert.match(alone.error ?? "", /nobody can be asked in this swarm: decide yourself/);
    const empty = await askUserTool.call({}, { question: "  " });
    assert.match(empty.error ?? "", /^invalid-args: ask_user/);
  });
});
