// Steering from the terminal: while `swarmboard run` runs, each line typed on its standard input is the person's:
//   @agent-2 look at src/parse.ts first   a message to agent-2 (read with its next tool result)
//   any other text                         a message to every agent (at its next step)
//   /pause agent-2, /resume agent-2        pause or resume one agent (it keeps its cells, claims and worktree)
//   /task add a --json flag                a task on the board that a free or later agent claims
//   @answer question-1 yes, keep the API   the answer to an agent's ask_user question
//   /trigger {"source": "diagnostic", ...}  a trigger for a standing swarm (swarmboard watch); there a plain line
//                                          is a message trigger for its router instead of a message to every agent
// What was done, or why not, is said on stderr.
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";

export type SteeringLine =
  | { readonly kind: "message"; readonly to: string; readonly text: string }
  | { readonly kind: "pause"; readonly agentId: string; readonly paused: boolean }
  | { readonly kind: "task"; readonly text: string }
  | { readonly kind: "answer"; readonly questionId: string; readonly text: string }
  | { readonly kind: "trigger"; readonly raw: unknown }
  | { readonly kind: "unclear"; readonly why: string };

/** What the lines act on: the running swarm's session (src/worker/swarm/swarmSession.ts). */
export interface SteeringTarget {
  message(to: string, text: string): Promise<{ id: string }>;
  pauseAgent(agentId: string, paused: boolean): { changed: boolean } | Promise<{ changed: boolean }>;
  addTask(text: string): Promise<{ id: string }>;
  answer(questionId: string, text: string): boolean | Promise<boolean>;
  /** Present for a standing swarm: takes a trigger (a plain line becomes a message trigger). */
  trigger?(raw: unknown): Promise<{ triggerId: string; said: string }>;
}

const usage =
  'write "@agent-N text" for one agent, text for every agent, "/pause agent-N", "/resume agent-N", ' +
  '"/task text" or "@answer question-N text"';

/** What a typed line stands for; undefined for a blank line. */
export function parseSteeringLine(line: string): SteeringLine | undefined {
  const trimmed = line.trim();
  if (trimmed === "") return undefined;
  const command = /^\/(\S+)\s*(.*)$/s.exec(trimmed);
  if (command !== null) {
    const [, name, rest] = command as unknown as [string, string, string];
    const arg = rest.trim();
    if ((name === "pause" || name === "resume") && /^\S+$/.test(arg))
      return { kind: "pause", agentId: arg, paused: name === "pause" };
    if (name === "task" && arg !== "") return { kind: "task", text: arg };
    if (name === "trigger" && arg !== "") {
      try {
        return { kind: "trigger", raw: JSON.parse(arg) as unknown };
      } catch (error) {
        return { kind: "unclear", why: `"/trigger" needs one JSON trigger (${(error as Error).message})` };
      }
    }
    const needs = name === "task" ? "a task" : name === "trigger" ? "one JSON trigger" : "one agent id";
    return { kind: "unclear", why: `"/${name}" needs ${needs}; ${usage}` };
  }
  const answer = /^@answer\s+(\S+)\s+(.+)$/s.exec(trimmed);
  if (answer !== null) return { kind: "answer", questionId: answer[1]!, text: answer[2]!.trim() };
  const addressed = /^@(\S+)\s+(.+)$/s.exec(trimmed);
  if (addressed !== null) return { kind: "message", to: addressed[1]!, text: addressed[2]!.trim() };
  if (trimmed.startsWith("@")) return { kind: "unclear", why: usage };
  return { kind: "message", to: "swarm", text: trimmed };
}

/** Carries out one line; resolves with what to tell the person. */
async function act(line: SteeringLine, target: SteeringTarget): Promise<string> {
  switch (line.kind) {
    case "unclear":
      return `not understood: ${line.why}`;
    case "trigger":
      if (target.trigger === undefined) return "not taken: triggers go to a standing swarm (swarmboard watch)";
      return target.trigger(line.raw).then(
        (taken) => `trigger ${taken.triggerId}: ${taken.said}`,
        (error: unknown) => `trigger not taken: ${(error as Error).message}`,
      );
    case "message":
      if (line.to === "swarm" && target.trigger !== undefined)
        return act({ kind: "trigger", raw: { source: "message", text: line.text } }, target);
      return target.message(line.to, line.text).then(
        (sent) => `message ${sent.id} sent to ${line.to}`,
        (error: unknown) => `message not sent: ${(error as Error).message}`,
      );
    case "pause": {
      const verb = line.paused ? "paused" : "resumed";
      try {
        const { changed } = await target.pauseAgent(line.agentId, line.paused);
        return changed ? `${line.agentId} ${verb}` : `${line.agentId} was already ${verb}`;
      } catch (error) {
        return `not ${verb}: ${(error as Error).message}`;
      }
    }
    case "task":
      return target.addTask(line.text).then(
        (task) => `task ${task.id} added to the board`,
        (error: unknown) => `task not added: ${(error as Error).message}`,
      );
    case "answer":
      try {
        return (await target.answer(line.questionId, line.text))
          ? `answer to ${line.questionId} sent`
          : `answer not sent: ${line.questionId} is not open (answered, timed out or withdrawn already)`;
      } catch (error) {
        return `answer not sent: ${(error as Error).message}`;
      }
  }
}

/** Reads steering lines from `input` until closed; returns the function that stops listening. */
export function listenForSteering(input: Readable, target: SteeringTarget, say: (line: string) => void): () => void {
  const lines = createInterface({ input, terminal: false });
  lines.on("line", (text) => {
    const line = parseSteeringLine(text);
    if (line !== undefined) void act(line, target).then(say);
  });
  return () => lines.close();
}
