// Reads the repository's agent-rules files (src/core/agentRules.ts says which) from HEAD, the commit every
// agent's worktree starts from: what the trunk says is what the agents will find in their files, and a
// symlink or an uncommitted scratch edit in the user's checkout never reaches the prompt.
import { agentRuleCandidates, capRule } from "../core/agentRules";
import type { AgentRule } from "../protocol/agentRules";
import { runGit } from "./gitExec";

/** The blob at `HEAD:path`, or null when there is none (missing, a folder, a symlink or a submodule). */
async function blobText(repoRoot: string, path: string): Promise<string | null> {
  const listed = await runGit(repoRoot, ["ls-tree", "HEAD", "--", path], { okExitCodes: [128] });
  // "<mode> <type> <sha>\t<path>": only a regular file (100644/100755) counts.
  const [meta] = listed.stdout.split("\t");
  if (listed.exitCode !== 0 || meta === undefined || !/^1006[0-9]{2} blob /.test(meta)) return null;
  const shown = await runGit(repoRoot, ["show", `HEAD:${path}`]);
  return shown.stdout;
}

/** Every rules file of the repository at HEAD, first found per name, each cut to the cap. */
export async function readAgentRules(repoRoot: string): Promise<AgentRule[]> {
  const rules: AgentRule[] = [];
  for (const candidate of agentRuleCandidates) {
    for (const path of candidate.paths) {
      const text = await blobText(repoRoot, path);
      if (text === null || text.trim() === "") continue;
      rules.push(capRule(candidate.name, path, text));
      break;
    }
  }
  return rules;
}
