// Reads the repository's agent-rules files (src/core/agentRules.ts says which) from HEAD, the commit every
// agent's worktree starts from: what the trunk says is what the agents will find in their files, and a
// symlink or an uncommitted scratch edit in the user's checkout never reaches the prompt.
import { agentRuleCandidates, capRule } from "../core/agentRules";
import type { AgentRule } from "../protocol/agentRules";
import { runGit } from "./gitExec";

/**
 * The paths among `paths` that are regular files at HEAD (not missing, a folder, a symlink or a submodule), listed
 * by one `git ls-tree` for all of them: a launch waits on this, and one git process per candidate cost ~0.5 s.
 */
async function regularFilesAtHead(repoRoot: string, paths: readonly string[]): Promise<Set<string>> {
  const listed = await runGit(repoRoot, ["ls-tree", "-z", "HEAD", "--", ...paths], { okExitCodes: [128] });
  if (listed.exitCode !== 0) return new Set();
  // "<mode> <type> <sha>\t<path>\0": only a regular file (100644/100755) counts.
  const files = listed.stdout
    .split("\0")
    .map((entry) => entry.split("\t"))
    .filter(([meta, path]) => path !== undefined && meta !== undefined && /^1006[0-9]{2} blob /.test(meta));
  return new Set(files.map(([, path]) => path!));
}

/** Every rules file of the repository at HEAD, first found per name, each cut to the cap. */
export async function readAgentRules(repoRoot: string): Promise<AgentRule[]> {
  const files = await regularFilesAtHead(
    repoRoot,
    agentRuleCandidates.flatMap((c) => c.paths),
  );
  const rules: AgentRule[] = [];
  for (const candidate of agentRuleCandidates) {
    for (const path of candidate.paths) {
      if (!files.has(path)) continue;
      const text = (await runGit(repoRoot, ["show", `HEAD:${path}`])).stdout;
      if (text.trim() === "") continue;
      rules.push(capRule(candidate.name, path, text));
      break;
    }
  }
  return rules;
}
