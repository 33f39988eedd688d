// The tasks the person added to the running swarm (Add Task, the Steer box's "Add as task"), each with where it
// stands: open, claimed by an agent, finished. Hidden until there is one. Rebuilt from the state on each update
// (a handful of rows).
import type { SwarmPanelView } from "../src/protocol/webviewMessages";
import { el, setAttr } from "./dom";

type AddedTask = NonNullable<SwarmPanelView["addedTasks"]>[number];

export interface AddedTasksDom {
  readonly root: HTMLElement;
  update(tasks: readonly AddedTask[] | undefined): void;
  /** The rows shown (tests compare them with the board). */
  rows(): Array<{ id: string; text: string }>;
}

function stateText(task: AddedTask): string {
  if (task.state === "claimed") return `claimed by ${task.agent ?? "an agent"}`;
  if (task.state === "finished") return `finished by ${task.agent ?? "an agent"}`;
  return "open: waiting for a free agent";
}

export function mountAddedTasks(): AddedTasksDom {
  const list = el("ol", "feed added-tasks");
  setAttr(list, "aria-label", "Tasks you added");
  const root = el("section", "card added-tasks-card", el("div", "card-title", el("h2", "", "Tasks you added")), list);
  root.id = "added-tasks";
  root.hidden = true;
  return {
    root,
    rows: () =>
      [...list.querySelectorAll<HTMLElement>("li")].map((li) => ({
        id: li.dataset.task ?? "",
        text: li.textContent ?? "",
      })),
    update(tasks) {
      root.hidden = tasks === undefined || tasks.length === 0;
      list.replaceChildren(
        ...(tasks ?? []).map((t) => {
          const row = el(
            "li",
            "finding",
            el("div", "finding-head", el("span", "kind", t.id), el("span", "", stateText(t))),
            el("div", "finding-text", t.title),
          );
          row.dataset.task = t.id;
          row.dataset.state = t.state;
          return row;
        }),
      );
    },
  };
}
