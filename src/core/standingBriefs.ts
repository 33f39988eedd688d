// What the agents of a standing swarm read first: the router's brief (it only dispatches), a worker's brief (the
// one task it owns, with the follow-ups that came before it started), and the task a trigger becomes.
import type { Role } from "../protocol/recipe";
import type { Task, TaskKind } from "../protocol/tasks";
import type { Trigger } from "../protocol/triggers";
import { agentBrief } from "./agentBriefs";

const kindOf: Record<Trigger["source"], TaskKind> = {
  diagnostic: "diagnostic",
  "test-failure": "test-failure",
  "todo-commit": "todo",
  "user-commit": "user",
  message: "user",
};

/** One line a person or an agent reads for a trigger. */
export function triggerLine(t: Trigger): string {
  const where = t.path === undefined ? "" : ` ${t.path}${t.line === undefined ? "" : `:${t.line}`}`;
  const test = t.test === undefined ? "" : ` test "${t.test}"`;
  return `[${t.id}] ${t.source}${where}${test}: ${t.text.replace(/\s+/g, " ")}`;
}

/** The task a worker owns for an assigned trigger; its id names the trigger, so the worker claims it by that. */
export function triggerTask(t: Trigger, task: string): Task {
  return {
    id: `task-${t.id}`,
    kind: kindOf[t.source],
    title: task.replace(/\s+/g, " ").slice(0, 200),
    detail: `${task}\n${triggerLine(t)}`,
    refs: t.path === undefined ? [] : [{ path: t.path, ...(t.line !== undefined ? { line: t.line } : {}) }],
    key: t.fingerprint,
  };
}

export function workerBrief(
  agent: string,
  role: Role,
  task: Task,
  trigger: Trigger,
  followUps: readonly Trigger[],
): string {
  return [
    agentBrief(agent, role, [task]),
    `You own exactly this one task, from the trigger ${triggerLine(trigger)}`,
    `What to do: ${task.detail.split("\n")[0]}`,
    ...(followUps.length > 0 ? ["Follow-ups on it so far:", ...followUps.map((f) => `- ${triggerLine(f)}`)] : []),
    "Later follow-ups reach you as messages. When your work is merged, or you give up (post a FAIL saying why), call finish.",
  ].join("\n");
}

export function routerBrief(agent: string, role: Role, workers: readonly { id: string; task: string }[]): string {
  const running = workers.length === 0 ? "(none)" : workers.map((w) => `- ${w.id}: ${w.task}`).join("\n");
  return [
    `You are ${agent}, the router of a standing swarm. ${role.instructions}`,
    "You only dispatch: you cannot read, write or run anything in the workspace. Call wait_for_triggers to read the " +
      "triggers that arrived (all at once), then decide each one by its id: assign_task (a new worker owns it), " +
      "forward_trigger (a running agent's work), reply_to_person, hold_trigger or drop_trigger (with why). Then wait again.",
    "Follow-ups on a task someone owns never reach you: they go to its owner.",
    "Running workers:",
    running,
  ].join("\n");
}
