// CI and automation configuration: files that a CI service or a git hook manager runs as code once a branch is
// merged or pushed (often with the repository's secrets). An agent's write to one asks the person first (unless
// the recipe allows them: `allowAutomationFiles`), and the review marks a branch that changes one. Names are
// compared the way protected paths are (pathContainment.ts: case-folded, trailing dots and spaces dropped), so
// `.GitHub/Workflows/ci.yml` is the same file on a forgiving file system.
import { randomUUID } from "node:crypto";
import type { CommandApprover } from "./approvals";
import { foldName, PathRefusedError } from "./pathContainment";

/** Folders (ending in `/`) and files at the worktree's top, and names (no `/`, starting `*`) at any depth. */
export const AUTOMATION_PATHS = [
  ".github/workflows/",
  ".github/actions/",
  ".gitlab-ci.yml",
  ".gitlab-ci.yaml",
  ".gitlab/ci/",
  ".circleci/",
  "*Jenkinsfile",
  ".pre-commit-config.yaml",
  ".pre-commit-hooks.yaml",
  "azure-pipelines.yml",
  "azure-pipelines.yaml",
  ".azure-pipelines/",
  ".buildkite/",
  ".travis.yml",
  ".drone.yml",
  ".woodpecker.yml",
  ".woodpecker/",
  "bitbucket-pipelines.yml",
  "appveyor.yml",
  ".appveyor.yml",
  "cloudbuild.yaml",
  ".husky/",
  "lefthook.yml",
  ".lefthook.yml",
] as const;

/** The automation entry the worktree-relative path `rel` falls under, or undefined. */
export function automationPathOf(rel: string): string | undefined {
  const segs = rel
    .split("/")
    .filter((s) => s !== "" && s !== ".")
    .map(foldName);
  if (segs.length === 0) return undefined;
  return AUTOMATION_PATHS.find((entry) => {
    if (entry.startsWith("*")) {
      const name = foldName(entry.slice(1));
      const last = segs[segs.length - 1]!;
      return last === name || last.startsWith(`${name}.`);
    }
    const want = entry.split("/").filter(Boolean).map(foldName);
    const isFolder = entry.endsWith("/");
    if (isFolder ? segs.length <= want.length : segs.length !== want.length) return false;
    return want.every((w, i) => segs[i] === w);
  });
}

/** The changed paths (worktree-relative) that are automation files, in order, each once. */
export function automationFilesIn(paths: readonly string[]): string[] {
  return [...new Set(paths.filter((p) => automationPathOf(p) !== undefined))];
}

export interface AutomationWrite {
  readonly agent: string;
  /** The agent's worktree. */
  readonly cwd: string;
  /** The tool that writes, e.g. "write_file". */
  readonly tool: string;
  /** The worktree-relative path it writes. */
  readonly rel: string;
}

/**
 * Asks the person before an agent writes a CI or automation file; throws a PathRefusedError (what to do instead)
 * when they do not approve. Other paths, and every path when the recipe allows automation files, pass at once.
 */
export async function approveAutomationWrite(
  write: AutomationWrite,
  options: { readonly approver: CommandApprover; readonly allowed: boolean; readonly signal?: AbortSignal },
): Promise<void> {
  const entry = automationPathOf(write.rel);
  if (entry === undefined || options.allowed) return;
  const reason =
    `ask: ${write.rel} is CI or automation configuration (${entry.replace(/^\*/, "")}): once merged, a CI ` +
    "service or git hook runs what it says, often with the repository's secrets";
  const request = {
    id: randomUUID(),
    agent: write.agent,
    command: `${write.tool} ${write.rel}`,
    cwd: write.cwd,
    reasons: [reason],
    sandboxed: false,
    rememberAs: `${write.tool} automation file ${write.rel}`,
  };
  if (await options.approver.requestApproval(request, options.signal)) return;
  throw new PathRefusedError(
    "protected-path",
    `Not approved: ${reason.slice("ask: ".length)}. Agents change CI and automation files only with the ` +
      "person's approval (or a recipe with allowAutomationFiles: true); post a finding that describes the change " +
      "you would make instead.",
  );
}
