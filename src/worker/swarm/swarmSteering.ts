// What the person can do to a running swarm besides messaging it (swarmSession.ts): pause or resume one agent,
// add a task, answer an agent's question. Each refuses with why while the swarm is not running, and for an agent
// that is not in it; what it changes on the board is emitted as events, since no agent's turn posts it.
import type { SwarmBoard } from "../../core/swarmBoard";
import { userAuthor } from "../../protocol/messages";
import type { Task } from "../../protocol/tasks";
import { AgentPauses } from "../agent/agentPauses";
import type { AgentEventDraft } from "../agent/agentEventDraft";
import { SwarmQuestions } from "../agent/swarmQuestions";
import { newTaskMessage, nextUserTaskId, userTaskRecordText } from "./userTasks";

const notRunning = "The swarm is not running (starting or ended); nothing was changed.";

export class SwarmSteering {
  readonly pauses = new AgentPauses();
  readonly questions: SwarmQuestions;
  private readonly added: Task[] = [];

  constructor(
    /** The running swarm's board; undefined while it starts or after it ended. */
    private readonly board: () => SwarmBoard | undefined,
    private readonly emit: (event: AgentEventDraft) => void,
    askUserTimeoutMs: number,
  ) {
    this.questions = new SwarmQuestions(emit, askUserTimeoutMs);
  }

  /** Pauses or resumes one running agent; `changed` false when it already was. */
  pauseAgent(agentId: string, paused: boolean): { agentId: string; paused: boolean; changed: boolean } {
    const board = this.board();
    if (board === undefined) throw new Error(notRunning);
    if (!board.messages.has(agentId))
      throw new Error(`Cannot ${paused ? "pause" : "resume"} "${agentId}": no such agent is running in the swarm.`);
    const changed = paused ? this.pauses.pause(agentId) : this.pauses.resume(agentId);
    return { agentId, paused, changed };
  }

  /**
   * Adds a task: recorded on the board (durable, so a resumed swarm lists it) and told to every running agent
   * as a swarm message; agents that start later find it among the open tasks of their brief.
   */
  async addTask(text: string, now: number): Promise<Task> {
    const board = this.board();
    if (board === undefined) throw new Error(notRunning);
    const id = nextUserTaskId(board.board.entries());
    const record = await board.postFinding({
      author: userAuthor,
      kind: "OBSERVED",
      text: userTaskRecordText(text),
      scope: { taskId: id },
      time: now,
    });
    this.emit({ type: "board-entry", entry: record });
    const sent = await board.send(userAuthor, "swarm", newTaskMessage(id, text), now);
    const message = board.board.get(sent.id);
    if (message !== undefined) this.emit({ type: "board-entry", entry: message });
    const task: Task = { id, kind: "user", title: text.replace(/\s+/g, " "), detail: text, refs: [], key: id };
    this.added.push(task);
    return task;
  }

  /** The open tasks a new agent's brief lists: the swarm's, then the ones added while it runs. */
  openTasks(base: readonly Task[]): readonly Task[] {
    const known = new Set(base.map((t) => t.id));
    return [...base, ...this.added.filter((t) => !known.has(t.id))];
  }

  /** The person's answer to a question; false when it is no longer open. */
  answer(questionId: string, text: string): boolean {
    return this.questions.answer(questionId, text);
  }

  /** The swarm ended: open questions are withdrawn (their agents have stopped). */
  close(): void {
    this.questions.withdrawAll();
  }
}
