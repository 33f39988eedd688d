// Shared by the in-host tests of the language model tools and the chat participant (issue 18): a git
// repository of the sample project with an AGENTS.md (so the rules show in the panel), and a turn script
// whose agents post findings with file refs and keep working long enough to be stopped.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LaunchOverrides } from "../../../src/host/lmTools/swarmDelegation";
import type { ScriptedCall, TurnScript } from "../../../src/protocol/turnScript";

const repoRoot = path.resolve(__dirname, "../../../..");
const modelsDir = process.env.SWARMBOARD_MODELS_DIR ?? path.resolve(repoRoot, "../shared/models");
export const modelPath = path.join(modelsDir, "stories260K.gguf");
export const agentsMdText =
  "# Working here\n\n- Run `npm test` before you merge.\n- src/stats.js has no dependencies.\n";

/** A fresh repository (outside the workbench's folder, so other suites see their folder untouched). */
export function makeRulesRepo(): string {
  if (!existsSync(modelPath)) throw new Error(`the test model is missing: ${modelPath} (set SWARMBOARD_MODELS_DIR)`);
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), "swarmboard-delegation-")), "repo");
  cpSync(path.join(repoRoot, "examples/sample-workspace"), dir, { recursive: true });
  writeFileSync(path.join(dir, "AGENTS.md"), agentsMdText);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=Swarmboard Tests", "-c", "user.email=tests@swarmboard.invalid", ...args], {
      cwd: dir,
    });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "sample project with agent rules");
  return dir;
}

function agentScript(n: number, calls: number): ScriptedCall[] {
  const out: ScriptedCall[] = [
    {
      tool: "post_finding",
      args: {
        kind: "FACT",
        text: `agent-${n}: median lives in src/stats.js`,
        refs: [{ path: "src/stats.js", line: 9 }],
      },
    },
    {
      tool: "post_finding",
      args: {
        kind: "OBSERVED",
        text: `agent-${n}: the README names the tests`,
        refs: [{ path: "README.md", line: 1 }],
      },
    },
  ];
  // Reading the board keeps the agent busy (each call is decoded token by token) until the test stops it.
  for (let i = 0; i < calls; i++) out.push({ tool: "grep_board", args: { kind: "FACT" } });
  return out;
}

/** Two researchers that post a FACT and an OBSERVED each, then read the board for a long while. */
export function longScript(): TurnScript {
  return {
    agents: {
      "agent-1": agentScript(1, 200),
      "agent-2": agentScript(2, 200),
      synthesist: [{ tool: "finish", args: { summary: "stopped early" } }],
    },
  };
}

export function launchOverrides(workspace: string): LaunchOverrides {
  return { workspace, modelPath, agents: 2, threads: 1, kvCells: 16_384, script: longScript() };
}
