// What a follow-up to @swarmboard asks of the running swarm, read from its words: stop it or one agent, tell the
// swarm or one agent something, add a task, answer an agent's question. Anything else is `unknown`, and the
// participant lists what it understands rather than guessing.
const agentId = String.raw`((?:agent|synthesist)-\d+)`;

export type FollowUp =
  | { readonly kind: "stop" }
  | { readonly kind: "stop-agent"; readonly agentId: string }
  | { readonly kind: "tell"; readonly to: string; readonly text: string }
  | { readonly kind: "add-task"; readonly text: string }
  | { readonly kind: "answer"; readonly questionId: string; readonly text: string }
  | { readonly kind: "unknown" };

/** The text after the command's words, without a leading colon or comma the person may type. */
function rest(text: string): string {
  return text.replace(/^[\s:,]+/, "").trim();
}

export function parseFollowUp(prompt: string): FollowUp {
  const p = prompt.trim();
  const stopAgent = new RegExp(`^stop\\s+${agentId}\\b`, "i").exec(p);
  if (stopAgent) return { kind: "stop-agent", agentId: stopAgent[1]!.toLowerCase() };
  if (/^stop\b/i.test(p)) return { kind: "stop" };
  const tellAgent = new RegExp(`^(?:tell|message)\\s+${agentId}\\b([\\s\\S]*)$`, "i").exec(p);
  if (tellAgent && rest(tellAgent[2]!) !== "")
    return { kind: "tell", to: tellAgent[1]!.toLowerCase(), text: rest(tellAgent[2]!) };
  const tellAll = /^(?:tell|message)\s+(?:the\s+)?(?:swarm|everyone|all(?:\s+agents)?)\b([\s\S]*)$/i.exec(p);
  if (tellAll && rest(tellAll[1]!) !== "") return { kind: "tell", to: "swarm", text: rest(tellAll[1]!) };
  const task = /^add\s+(?:a\s+)?task\b([\s\S]*)$/i.exec(p);
  if (task && rest(task[1]!) !== "") return { kind: "add-task", text: rest(task[1]!) };
  const answer = /^answer\s+(question-\d+)\b([\s\S]*)$/i.exec(p);
  if (answer && rest(answer[2]!) !== "")
    return { kind: "answer", questionId: answer[1]!.toLowerCase(), text: rest(answer[2]!) };
  return { kind: "unknown" };
}
