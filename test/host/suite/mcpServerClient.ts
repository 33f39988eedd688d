// An MCP client on the windows' server (issue 26: two windows, a command line and an MCP client on one server): the
// SDK's client over stdio talks to the bundled `swarmboard mcp --server`, run with this host's environment, so it
// attaches to the server the windows use. Its workspace is the command line's repository: it sees the swarm another
// client started there, live while that swarm waits for its answer.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { modelPath, repoRoot } from "./reviewSwarmRun";

export interface McpServerClient {
  /** The swarms the MCP server lists as resources (their ids). */
  listedSwarms(): Promise<string[]>;
  /** What `swarmboard_status` says of a swarm. */
  status(swarmId: string): Promise<string>;
  /** What the MCP server printed on stderr. */
  readonly stderr: () => string;
  close(): Promise<void>;
}

export async function startMcpServerClient(workspace: string): Promise<McpServerClient> {
  const cli = path.join(repoRoot(), "dist", "cli", "main.js");
  const stateRoot = mkdtempSync(path.join(os.tmpdir(), "swarmboard-two-windows-mcp-"));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, "mcp", "--server", "--model", modelPath(), "--workspace", workspace, "--threads", "1"].concat([
      "--state-root",
      stateRoot,
    ]),
    // The extension host's node (code-server's); ELECTRON_RUN_AS_NODE is what a desktop VS Code host would need.
    env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" } as Record<string, string>,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "swarmboard-two-windows", version: "0.0.0" });
  await client.connect(transport);
  return {
    listedSwarms: async () =>
      (await client.listResources()).resources
        .map((r) => /^swarmboard:\/\/swarms\/([^/]+)\/status$/.exec(r.uri)?.[1])
        .filter((id): id is string => id !== undefined),
    status: async (swarmId) => {
      const said = await client.callTool({ name: "swarmboard_status", arguments: { swarmId } });
      return (said as { content: Array<{ text?: string }> }).content.map((c) => c.text ?? "").join("");
    },
    stderr: () => stderr,
    close: () => client.close(),
  };
}
