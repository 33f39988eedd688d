// The shared findings feed: every board entry of the swarm, newest at the bottom, filtered by kind, agent
// and path. Entries are only ever appended, so the feed appends new nodes and hides filtered ones; it never
// rebuilds. A finding with a file reference opens that file at its line (the host checks the path).
import type { FindingView } from "../src/protocol/webviewMessages";
import { clockTime, el, setAttr } from "./dom";

const kinds = ["OBSERVED", "FACT", "FAIL", "CLAIM", "RELEASE", "PATCH_SUMMARY", "MESSAGE"];
const itemsKept = 400;

export interface FeedDom {
  readonly root: HTMLElement;
  /** `swarmId`: the swarm the findings are of; another swarm's feed replaces this one's. */
  update(findings: readonly FindingView[], colours: ReadonlyMap<string, number>, swarmId: string): void;
  /** The text of each finding shown (not filtered out), oldest first. */
  texts(): string[];
}

function select(label: string, options: string[]): HTMLSelectElement {
  const node = document.createElement("select");
  setAttr(node, "aria-label", label);
  node.append(
    ...options.map((o) =>
      Object.assign(document.createElement("option"), {
        value: o === "all" ? "" : o,
        textContent: o === "all" ? `${label}: all` : o,
      }),
    ),
  );
  return node;
}

export function mountFeed(onOpen: (path: string, line: number | undefined) => void): FeedDom {
  const kind = select("Kind", ["all", ...kinds]);
  const agent = select("Agent", ["all"]);
  const pathFilter = document.createElement("input");
  pathFilter.type = "search";
  pathFilter.placeholder = "Filter by path";
  setAttr(pathFilter, "aria-label", "Filter findings by path");
  const list = el("ol", "feed");
  setAttr(list, "aria-live", "polite");
  setAttr(list, "aria-relevant", "additions");
  setAttr(list, "aria-label", "Findings");
  const count = el("span", "badge", "0");
  const root = el(
    "section",
    "card feed-card",
    el("div", "card-title", el("h2", "", "Findings"), count),
    el("div", "filters", kind, agent, pathFilter),
    list,
  );
  root.id = "findings";
  const shown = new Map<string, { node: HTMLElement; finding: FindingView }>();
  const agents = new Set<string>();

  const visible = (f: FindingView) =>
    (kind.value === "" || f.kind === kind.value) &&
    (agent.value === "" || f.author === agent.value) &&
    (pathFilter.value.trim() === "" || (f.path ?? "").includes(pathFilter.value.trim()));

  const refilter = () => {
    for (const { node, finding } of shown.values()) node.hidden = !visible(finding);
  };
  for (const control of [kind, agent]) control.addEventListener("change", refilter);
  pathFilter.addEventListener("input", refilter);

  const create = (f: FindingView, colour: number): HTMLElement => {
    const where = f.path ? `${f.path}${f.line ? `:${f.line}` : ""}` : "";
    const body = el("span", "finding-text", f.text);
    const head = el(
      "span",
      "finding-head",
      el("span", `kind kind-${f.kind}`, f.kind),
      el("span", `author c${colour}`, f.author),
      el("time", "muted", clockTime(f.time)),
    );
    const parts: Node[] = [head, body];
    const node = el("li", "finding");
    // The finding itself is the one Tab stop (its file link is not a second one): Enter opens its file, as the
    // link's click does, so a keyboard reaches every finding in one press each.
    setAttr(node, "tabindex", "0");
    if (where) {
      const open = el("button", "link", where);
      setAttr(open, "aria-label", `Open ${where}`);
      setAttr(open, "tabindex", "-1");
      open.addEventListener("click", () => onOpen(f.path ?? "", f.line));
      parts.push(open);
      setAttr(node, "aria-keyshortcuts", "Enter");
      setAttr(node, "title", `Enter opens ${where}`);
      node.addEventListener("keydown", (event) => {
        if (event.key !== "Enter" || event.target !== node) return;
        event.preventDefault();
        onOpen(f.path ?? "", f.line);
      });
    }
    node.append(...parts);
    node.dataset.id = f.id;
    return node;
  };

  let shownSwarm: string | undefined;
  const update = (findings: readonly FindingView[], colours: ReadonlyMap<string, number>, swarmId: string) => {
    // Entries are only appended within one swarm; the panel showing another swarm starts the feed over.
    if (shownSwarm !== swarmId) {
      for (const { node } of shown.values()) node.remove();
      shown.clear();
      shownSwarm = swarmId;
    }
    const added: HTMLElement[] = [];
    for (const f of findings) {
      if (shown.has(f.id)) continue;
      const node = create(f, colours.get(f.author) ?? 0);
      node.hidden = !visible(f);
      shown.set(f.id, { node, finding: f });
      added.push(node);
      if (!agents.has(f.author)) {
        agents.add(f.author);
        agent.append(Object.assign(document.createElement("option"), { value: f.author, textContent: f.author }));
      }
    }
    count.textContent = String(shown.size);
    if (added.length === 0) return;
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
    list.append(...added);
    for (const [id, item] of shown) {
      if (shown.size <= itemsKept) break;
      item.node.remove();
      shown.delete(id);
    }
    count.textContent = String(shown.size);
    if (atBottom) list.scrollTop = list.scrollHeight;
  };

  const texts = () =>
    [...shown.values()]
      .filter((s) => !s.node.hidden)
      .map((s) => s.node.querySelector(".finding-text")?.textContent ?? "");
  return { root, update, texts };
}
