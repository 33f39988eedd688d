// The person's side of a running swarm: the agents' open questions, each with its answer box, and one message box
// that sends to the whole swarm or to one chosen agent, or adds its text as a task. Built once and updated in
// place, so what the person is typing survives every state the host sends. Text goes out as data only; the host
// parses it with its schema and runs the same command the tree does.
import { questionWaitText } from "../src/protocol/steering";
import type { AgentLaneView, QuestionView } from "../src/protocol/webviewMessages";
import { el, setAttr, setText } from "./dom";

export interface SteeringHandlers {
  sendMessage(to: string, text: string): void;
  addTask(text: string): void;
  answer(questionId: string, text: string): void;
}

export interface SteeringDom {
  readonly root: HTMLElement;
  update(running: boolean, agents: readonly AgentLaneView[], questions: readonly QuestionView[]): void;
  /** The open questions shown, by id. */
  questionIds(): string[];
  /** The message box's recipients: "swarm", then each agent it offers. */
  recipients(): string[];
}

const endedStates = new Set(["done", "failed", "interrupted"]);

function textBox(label: string, placeholder: string, maxLength: number): HTMLTextAreaElement {
  const box = document.createElement("textarea");
  box.rows = 2;
  box.placeholder = placeholder;
  box.maxLength = maxLength;
  setAttr(box, "aria-label", label);
  return box;
}

function button(text: string, className: string, onClick: () => void): HTMLButtonElement {
  const node = el("button", className, text) as HTMLButtonElement;
  node.addEventListener("click", onClick);
  return node;
}

function mountQuestion(q: QuestionView, on: SteeringHandlers): { node: HTMLElement; tick: () => void } {
  const box = textBox(`Answer to ${q.agentId}`, "Your answer…", 8_000);
  const send = () => {
    const text = box.value.trim();
    if (text === "") return;
    on.answer(q.questionId, text);
    box.value = "";
  };
  const countdown = el("span", "muted question-wait", "");
  const node = el(
    "li",
    "question",
    el("div", "question-head", el("strong", "", `${q.agentId} asks`), el("span", "muted", `${q.questionId}`)),
    el("p", "question-text", q.question),
    box,
    el("div", "steer-actions", countdown, button("Answer", "", send)),
  );
  node.dataset.question = q.questionId;
  // Counted on the page's own clock from what was left when the host sent it (the clocks may differ, remotely).
  const deadline = performance.now() + (q.remainingMs ?? q.timeoutMs);
  const tick = () => setText(countdown, questionWaitText(deadline - performance.now()));
  tick();
  return { node, tick };
}

export function mountSteering(on: SteeringHandlers): SteeringDom {
  const questionList = el("ol", "questions");
  setAttr(questionList, "aria-label", "Questions from agents");
  setAttr(questionList, "aria-live", "polite");
  const questionTitle = el("h2", "", "Agents ask you");
  const questionsCard = el("section", "card questions-card", questionTitle, questionList);
  questionsCard.id = "questions";
  questionsCard.hidden = true;

  const to = document.createElement("select");
  setAttr(to, "aria-label", "Send to");
  const box = textBox("Message to the swarm", "Message the swarm or one agent, or describe a task…", 8_000);
  const take = () => {
    const text = box.value.trim();
    if (text !== "") box.value = "";
    return text;
  };
  const send = button("Send", "", () => {
    const text = take();
    if (text !== "") on.sendMessage(to.value, text);
  });
  const task = button("Add as task", "secondary", () => {
    const text = take();
    if (text !== "") on.addTask(text);
  });
  const messageCard = el(
    "section",
    "card message-card",
    el("div", "card-title", el("h2", "", "Steer"), to),
    box,
    el("div", "steer-actions", el("span", "muted", "An agent reads it at its next tool result."), task, send),
  );
  messageCard.id = "message-box";

  const shown = new Map<string, { node: HTMLElement; tick: () => void }>();
  // One clock for every open question's countdown, running only while one is shown.
  let clock: ReturnType<typeof setInterval> | undefined;
  const keepClock = () => {
    if (shown.size > 0 && clock === undefined) clock = setInterval(() => shown.forEach((q) => q.tick()), 1000);
    if (shown.size === 0 && clock !== undefined) {
      clearInterval(clock);
      clock = undefined;
    }
  };
  const updateRecipients = (agents: readonly AgentLaneView[]) => {
    const ids = ["swarm", ...agents.filter((a) => !endedStates.has(a.state)).map((a) => a.id)];
    const current = [...to.options].map((o) => o.value);
    if (current.join("\n") === ids.join("\n")) return;
    const chosen = to.value;
    to.replaceChildren(
      ...ids.map((id) =>
        Object.assign(document.createElement("option"), {
          value: id,
          textContent: id === "swarm" ? "Whole swarm" : id,
        }),
      ),
    );
    to.value = ids.includes(chosen) ? chosen : "swarm";
  };

  const update = (running: boolean, agents: readonly AgentLaneView[], questions: readonly QuestionView[]) => {
    for (const control of [to, box, send, task]) control.disabled = !running;
    updateRecipients(agents);
    const open = new Set(questions.map((q) => q.questionId));
    for (const [id, mounted] of shown)
      if (!open.has(id)) {
        mounted.node.remove();
        shown.delete(id);
      }
    for (const q of questions)
      if (!shown.has(q.questionId)) {
        const mounted = mountQuestion(q, on);
        shown.set(q.questionId, mounted);
        questionList.append(mounted.node);
      }
    keepClock();
    questionsCard.hidden = shown.size === 0;
    setText(questionTitle, shown.size === 1 ? "An agent asks you" : `Agents ask you (${shown.size})`);
  };

  return {
    root: el("div", "steering", questionsCard, messageCard),
    update,
    questionIds: () => [...shown.keys()],
    recipients: () => [...to.options].map((o) => o.value),
  };
}
