// An agent's `ask_user` question: it goes out as a `user-question` event and the agent waits, in its tool call
// (so it takes no decode step and holds no other agent back), for the person's answer, at most the swarm's
// timeout. No answer in time, or a timeout of 0 (nobody will answer), is told to the agent as such: it goes on
// with its best judgement. Every question ends with a `user-question-ended` event, whatever ended it.
import type { QuestionOutcome } from "../../protocol/steering";
import type { AgentEventDraft } from "./agentEventDraft";
import type { AskUserOutcome } from "./tools/toolContext";

interface OpenQuestion {
  readonly agentId: string;
  settle(outcome: QuestionOutcome, answer?: string): void;
}

export class SwarmQuestions {
  private readonly open = new Map<string, OpenQuestion>();
  private count = 0;

  constructor(
    private readonly emit: (event: AgentEventDraft) => void,
    /** 0: nobody will answer (a headless run that asked for that). */
    private readonly timeoutMs: number,
  ) {}

  /** Asks the person; resolves with the answer, or with the note the agent reads when none came. */
  ask(agentId: string, question: string, signal?: AbortSignal): Promise<AskUserOutcome> {
    const questionId = `question-${++this.count}`;
    const seconds = Math.round(this.timeoutMs / 1000);
    if (this.timeoutMs <= 0) {
      const note = "Nobody can answer questions in this swarm: go on with your best judgement.";
      return Promise.resolve({ answered: false, questionId, note });
    }
    this.emit({ type: "user-question", questionId, agentId, question, timeoutMs: this.timeoutMs });
    return new Promise<AskUserOutcome>((resolve) => {
      const end = (outcome: QuestionOutcome, answer?: string) => {
        if (!this.open.delete(questionId)) return;
        clearTimeout(timer);
        signal?.removeEventListener("abort", withdraw);
        this.emit({
          type: "user-question-ended",
          questionId,
          agentId,
          outcome,
          ...(answer !== undefined ? { answer } : {}),
        });
        if (answer !== undefined) resolve({ answered: true, questionId, answer });
        else
          resolve({
            answered: false,
            questionId,
            note:
              outcome === "timed-out"
                ? `No answer within ${seconds} s: go on with your best judgement.`
                : "The question was withdrawn: you are stopping.",
          });
      };
      const withdraw = () => end("withdrawn");
      const timer = setTimeout(() => end("timed-out"), this.timeoutMs);
      this.open.set(questionId, { agentId, settle: end });
      if (signal?.aborted) withdraw();
      else signal?.addEventListener("abort", withdraw, { once: true });
    });
  }

  /** The person's answer; false when no such question is open (answered, timed out or withdrawn already). */
  answer(questionId: string, text: string): boolean {
    const question = this.open.get(questionId);
    question?.settle("answered", text);
    return question !== undefined;
  }

  /** Ends every open question as withdrawn (the swarm ended). */
  withdrawAll(): void {
    for (const question of [...this.open.values()]) question.settle("withdrawn");
  }
}
