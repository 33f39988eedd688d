// Steering from the terminal: while `swarmboard run` runs, each line typed on its standard input is a message from
// the person: "@agent-2 look at src/parse.ts first" goes to agent-2 (read with its next tool result), any other
// line to every agent (at its next step). What was sent, or why not, is said on stderr.
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";

export interface MessageLine {
  /** An agent's id, or "swarm". */
  readonly to: string;
  readonly text: string;
}

/** The message a typed line stands for; undefined for a blank line or a bare "@agent". */
export function parseMessageLine(line: string): MessageLine | undefined {
  const trimmed = line.trim();
  const addressed = /^@(\S+)\s+(.+)$/s.exec(trimmed);
  if (addressed !== null) return { to: addressed[1]!, text: addressed[2]!.trim() };
  if (trimmed === "" || trimmed.startsWith("@")) return undefined;
  return { to: "swarm", text: trimmed };
}

/** Reads message lines from `input` until closed; returns the function that stops listening. */
export function listenForMessages(
  input: Readable,
  send: (to: string, text: string) => Promise<{ id: string }>,
  say: (line: string) => void,
): () => void {
  const lines = createInterface({ input, terminal: false });
  lines.on("line", (line) => {
    const message = parseMessageLine(line);
    if (message === undefined) {
      if (line.trim() !== "") say(`not sent: write "@agent-N text" for one agent, or text for every agent`);
      return;
    }
    send(message.to, message.text).then(
      (sent) => say(`message ${sent.id} sent to ${message.to}`),
      (error: unknown) => say(`message not sent: ${(error as Error).message}`),
    );
  });
  return () => lines.close();
}
