// The MCP tools that talk to a running swarm (message_swarm, add_task, answer_question, send_trigger): the schemas
// of src/protocol/talkTools.ts, which the SDK validates (a bad argument is a tool error naming the field), each
// answered by the worker's own steering or trigger method through McpSwarms.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { TalkAnswer } from "../core/swarmTalk";
import { talkTools } from "../protocol/talkTools";
import type { McpSwarms } from "./mcpSwarms";

function toolResult(answer: TalkAnswer) {
  return { content: [{ type: "text" as const, text: answer.text }], ...(answer.ok ? {} : { isError: true }) };
}

export function registerTalkTools(server: McpServer, swarms: McpSwarms): void {
  const t = talkTools;
  server.registerTool(
    "message_swarm",
    { title: "Message a running swarm", description: t.message_swarm.description, inputSchema: t.message_swarm.input },
    async (input) => toolResult(await swarms.message(input)),
  );
  server.registerTool(
    "add_task",
    { title: "Add a task to a running swarm", description: t.add_task.description, inputSchema: t.add_task.input },
    async (input) => toolResult(await swarms.addTask(input)),
  );
  server.registerTool(
    "answer_question",
    {
      title: "Answer an agent's question",
      description: t.answer_question.description,
      inputSchema: t.answer_question.input,
    },
    async (input) => toolResult(await swarms.answer(input)),
  );
  server.registerTool(
    "send_trigger",
    {
      title: "Send a trigger to a standing swarm",
      description: t.send_trigger.description,
      inputSchema: t.send_trigger.input,
    },
    async (input) => toolResult(await swarms.trigger(input)),
  );
}
