// Whether a folder can host a swarm: inside a git working tree that has a first commit (agents start from HEAD).
// For the CLI's input checks, which may not reach into the workspace layer themselves.
import { headCommit, locateRepo } from "../workspace/repoFacts";

/** The repository's working tree root; throws a message that says what to do when the folder cannot host a swarm. */
export async function checkRepository(dir: string): Promise<string> {
  const { topLevel } = await locateRepo(dir);
  await headCommit(topLevel);
  return topLevel;
}
