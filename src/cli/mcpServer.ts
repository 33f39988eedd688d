// `swarmboard mcp`: an MCP server over stdio (the official TypeScript SDK) exposing the delegation tools
// (launch, status, findings, stop: the schemas of src/protocol/delegationTools.ts, which the SDK validates;
// a bad argument is a tool error naming the field), the talk tools (mcpTalkTools.ts) and the board as resources. Usable from any MCP client:
// VS Code's mcp.json, Claude Code, Cline (the README shows the configuration).
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { extensionVersion } from "../protocol/buildInfo";
import { delegationTools } from "../protocol/delegationTools";
import { findingsText, statusText } from "../core/delegationText";
import { McpSwarms, type McpAnswer, type McpSwarmOptions } from "./mcpSwarms";
import path from "node:path";
import type { McpOptions } from "./args";
import { checkModelFile, checkWorkspace } from "./inputChecks";
import { readScriptFile } from "./inputFiles";
import { maxMcpLineBytes, McpLineGuard } from "./mcpLineGuard";
import { registerTalkTools } from "./mcpTalkTools";
import { attachToServer } from "./serverAttach";

function toolResult(answer: McpAnswer) {
  return { content: [{ type: "text" as const, text: answer.text }], ...(answer.ok ? {} : { isError: true }) };
}

function registerTools(server: McpServer, swarms: McpSwarms): void {
  const t = delegationTools;
  server.registerTool(
    "swarmboard_launch",
    {
      title: "Launch a Swarmboard swarm",
      description: t.swarmboard_launch.description,
      inputSchema: t.swarmboard_launch.input,
    },
    async (input) => toolResult(await swarms.launch(input)),
  );
  server.registerTool(
    "swarmboard_status",
    {
      title: "Swarm status",
      description: t.swarmboard_status.description,
      inputSchema: t.swarmboard_status.input,
      annotations: { readOnlyHint: true },
    },
    async (input) => toolResult(await swarms.status(input)),
  );
  server.registerTool(
    "swarmboard_findings",
    {
      title: "Swarm findings",
      description: t.swarmboard_findings.description,
      inputSchema: t.swarmboard_findings.input,
      annotations: { readOnlyHint: true },
    },
    async (input) => toolResult(await swarms.findings(input)),
  );
  server.registerTool(
    "swarmboard_stop",
    { title: "Stop a swarm", description: t.swarmboard_stop.description, inputSchema: t.swarmboard_stop.input },
    async (input) => toolResult(await swarms.stop(input)),
  );
}

/** Each swarm's status and its board, as resources a client can list and read. */
function registerResources(server: McpServer, swarms: McpSwarms): void {
  // On the server the list holds the swarms other clients run on this workspace too (McpSwarms.catchUp).
  const list = (suffix: string, what: string) => async () => {
    await swarms.catchUp();
    return {
      resources: swarms.swarms().map((s) => ({
        uri: `swarmboard://swarms/${s.id}/${suffix}`,
        name: `${s.id} ${what}`,
        mimeType: "text/plain",
      })),
    };
  };
  const view = async (swarmId: unknown) => {
    await swarms.catchUp();
    const found = swarms.swarms().find((s) => s.id === String(swarmId));
    if (!found) throw new Error(`No swarm "${String(swarmId)}" in this server; launch one with swarmboard_launch.`);
    return found;
  };
  server.registerResource(
    "swarm-status",
    new ResourceTemplate("swarmboard://swarms/{swarmId}/status", { list: list("status", "status") }),
    { description: "A swarm's status: agents, findings per kind, KV budget, report.", mimeType: "text/plain" },
    async (uri, { swarmId }) => ({
      contents: [{ uri: uri.href, mimeType: "text/plain", text: statusText(await view(swarmId)) }],
    }),
  );
  server.registerResource(
    "swarm-findings",
    new ResourceTemplate("swarmboard://swarms/{swarmId}/findings", { list: list("findings", "board") }),
    { description: "A swarm's board: every typed finding with its file:line references.", mimeType: "text/plain" },
    async (uri, { swarmId }) => ({
      contents: [{ uri: uri.href, mimeType: "text/plain", text: findingsText(await view(swarmId), { limit: 500 }) }],
    }),
  );
  server.registerResource(
    "swarm-board-json",
    new ResourceTemplate("swarmboard://swarms/{swarmId}/board.json", { list: undefined }),
    { description: "A swarm's board entries as JSON (the board's own schema).", mimeType: "application/json" },
    async (uri, { swarmId }) => ({
      contents: [
        { uri: uri.href, mimeType: "application/json", text: JSON.stringify((await view(swarmId)).entries, null, 2) },
      ],
    }),
  );
}

/** Serves MCP on stdin/stdout until the client closes the stream; resolves when it has. */
export async function runMcpServer(options: Omit<McpSwarmOptions, "log">, onServer = false): Promise<number> {
  // stdout carries the protocol: anything else printed there (a library's console.log) would corrupt it.
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
  const log = (line: string) => process.stderr.write(`swarmboard mcp: ${line}\n`);
  // The swarms run on the user's shared worker (started when none runs; --no-server: here); it outlives this MCP server.
  const connection = onServer ? await attachToServer("mcp", log) : undefined;
  connection?.onClose(() => log("the Swarmboard server closed the connection: launches fail until it is back"));
  const swarms = new McpSwarms({ ...options, log }, connection?.peer);
  const server = new McpServer(
    { name: "swarmboard", version: extensionVersion },
    {
      instructions:
        "Delegate broad coding or research tasks to a local agent swarm on one model; read its board; message its agents, add tasks, answer their questions, send triggers to a standing one.",
    },
  );
  registerTools(server, swarms);
  registerTalkTools(server, swarms);
  registerResources(server, swarms);
  // Whole lines up to the limit reach the SDK's transport; a longer one is answered with an error here.
  const input = process.stdin.pipe(new McpLineGuard((line) => process.stdout.write(`${line}\n`)));
  const transport = new StdioServerTransport(input, process.stdout, { maxBufferSize: 2 * maxMcpLineBytes });
  const closed = new Promise<void>((resolve) => (transport.onclose = () => resolve()));
  process.stdin.once("end", () => void server.close());
  await server.connect(transport);
  log(
    `serving on stdio (workspace ${options.workspace}, model ${options.modelPath ?? "none"}` +
      `${connection ? `, swarms on the server at ${connection.socketPath}` : ""})`,
  );
  await closed;
  swarms.dispose();
  connection?.close();
  return 0;
}

/**
 * `swarmboard mcp`: its workspace, model and script checked before the server starts (a bad one exits 2 with
 * what to fix, instead of every launch failing later), then served until the client closes the stream.
 */
export async function mcpCommand(command: McpOptions): Promise<number> {
  const workspace = await checkWorkspace(command.workspace);
  const model = command.model ?? process.env.SWARMBOARD_MODEL;
  const modelPath = model ? await checkModelFile(model) : undefined;
  const script = command.script === undefined ? undefined : await readScriptFile(command.script);
  return runMcpServer(
    {
      ...(modelPath ? { modelPath } : {}),
      workspace,
      stateRoot: path.resolve(command.stateRoot ?? path.join(path.dirname(workspace), ".swarmboard-state", "mcp")),
      threads: command.threads,
      ...(command.kvCells ? { kvCells: command.kvCells } : {}),
      ...(command.gpu ? { gpu: command.gpu } : {}),
      ...(command.kvCacheType ? { kvCacheType: command.kvCacheType } : {}),
      ...(script ? { script } : {}),
      approveAsks: command.approveAsks,
      agentRules: !command.noAgentRules,
      ...(command.askUserTimeout !== undefined ? { askUserTimeoutSeconds: command.askUserTimeout } : {}),
    },
    command.server,
  );
}
