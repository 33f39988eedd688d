// What a workspace tool's failure tells the agent: each error the tools throw, as a ToolError that says what
// happened and what to do.
import type { ToolError } from "../protocol/tools";
import { ToolFailure } from "./fileTools";
import { GitCommandError } from "./gitExec";
import { PathRefusedError } from "./pathContainment";

/** The tool error a reader's write attempt gets: it says why and what the agent can do instead. */
export class ReadOnlyRefusal extends Error {
  readonly code = "read-only";

  constructor(action: string) {
    super(
      `Refused: ${action} needs a worktree of your own, and your role only reads (it has no tool that writes). ` +
        "You read the integration commit through the swarm's shared read-only view; post what you found instead.",
    );
    this.name = "ReadOnlyRefusal";
  }
}

/** A write, edit or merge touching a file inside another agent's live claim; the message names the owner. */
export class ClaimedPathRefusal extends Error {
  readonly code = "claimed";

  constructor(message: string) {
    super(message);
    this.name = "ClaimedPathRefusal";
  }
}

/** The ToolError a workspace failure stands for; undefined for an error no tool of the workspace throws. */
export function knownToolError(err: unknown): ToolError | undefined {
  if (err instanceof PathRefusedError) return { code: err.code, message: err.message };
  if (err instanceof ToolFailure) return { code: err.code, message: err.message };
  if (err instanceof ReadOnlyRefusal) return { code: err.code, message: err.message };
  if (err instanceof ClaimedPathRefusal) return { code: err.code, message: err.message };
  if (err instanceof GitCommandError) return { code: "git-failed", message: err.message };
  const e = err as NodeJS.ErrnoException;
  if (e?.code === "ENOENT") return { code: "not-found", message: `Not found: ${e.message}` };
  if (e?.code === "ELOOP")
    return {
      code: "outside-worktree",
      message: "The path is (or became) a symlink; refused. Name the file it points to.",
    };
  return undefined;
}

/** Every failure as a ToolError the agent can read (an unknown one is an I/O failure). */
export function toToolError(err: unknown): ToolError {
  return knownToolError(err) ?? { code: "io-failed", message: err instanceof Error ? err.message : String(err) };
}
