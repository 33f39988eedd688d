// The person's own git identity, needed only for the merge they ask for (agents commit as the swarm). A machine
// without one (a new laptop, a dev container, a CI runner) makes `git merge` stop after it has started; asking
// git first lets the merge refuse before it touches anything, with what to run.
import { runGit } from "./gitExec";

/** Exit code of `git var` when it cannot make an identity (nothing configured and nothing it can guess). */
const NO_IDENTITY = 128;

/**
 * Undefined when git in `dir` can author and commit a merge as the person; otherwise the message that says what
 * is missing and what to run. Environment overrides (GIT_AUTHOR_NAME, EMAIL, ...) count, as they do for git.
 */
export async function missingUserIdentity(dir: string): Promise<string | undefined> {
  for (const role of ["GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT"]) {
    const probe = await runGit(dir, ["var", role], { okExitCodes: [NO_IDENTITY] });
    if (probe.exitCode === NO_IDENTITY) {
      return (
        "Git does not know who you are (no user.name and user.email), so it cannot record your merge; nothing was changed. " +
        'Run git config --global user.name "Your Name" and git config --global user.email "you@example.com" ' +
        "(or without --global for this repository only), then merge again."
      );
    }
  }
  return undefined;
}
