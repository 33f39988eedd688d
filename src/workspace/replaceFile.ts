// Every write of a file tool goes through here: the new bytes go into a fresh file next to the target, which is
// then renamed over it. A rename replaces the name, not the inode, so a target that is a hard link to a file
// outside the worktree (made by an approved command or checked out that way) gets a new inode of its own and the
// other name keeps its bytes; a symlink planted at the target is replaced, never followed.
import { randomBytes } from "node:crypto";
import { constants as fsConstants } from "node:fs";
import { lstat, open, rename, unlink } from "node:fs/promises";
import path from "node:path";

/** Writes `content` to `real` (an already contained, resolved path) by write-new-then-rename. */
export async function replaceFileContent(real: string, content: string): Promise<void> {
  const old = await lstat(real).catch(() => null);
  if (old?.isSymbolicLink()) {
    const err: NodeJS.ErrnoException = new Error(`${real} is a symlink`);
    err.code = "ELOOP";
    throw err;
  }
  // Keep the mode of the file being replaced (an executable script stays executable).
  const mode = old ? old.mode & 0o777 : 0o644;
  const temp = path.join(path.dirname(real), `.swarmboard-write-${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(
    temp,
    fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_NOFOLLOW,
    mode,
  );
  try {
    try {
      await handle.writeFile(content, "utf8");
      await handle.chmod(mode);
    } finally {
      await handle.close();
    }
    await rename(temp, real);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}
