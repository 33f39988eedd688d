// The repository's memory across swarms: `<git common dir>/swarmboard/memory.jsonl`, beside the swarm registry
// (swarmRegistry.ts says why there: every window, the CLI and every worktree of the repository find it, git never
// shows it, and it goes with the repository). Every change rewrites the whole file under a lock file and renames
// it into place, so a reader sees the old file or the new one, two writers never lose each other's memories, and
// a deleted memory's text is really gone from the disk. Lines it cannot read and a torn last line are carried
// over by every rewrite, unchanged (memoryLog.ts).
import { mkdir, open, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { decodeMemories, encodeMemories, mergeMemories, type DecodedMemories } from "../core/memoryLog";
import { memorySchema, type Memory } from "../protocol/memory";
import { locateRepo } from "./repoFacts";

export interface MemoryRead {
  readonly memories: Memory[];
  /** Lines that could not be read, each with its number and why. */
  readonly problems: string[];
}

/** A lock older than this is left by a writer that died: a rewrite takes milliseconds. */
const staleLockMs = 30_000;
const lockWaitMs = 10_000;

export class RepositoryMemory {
  private constructor(
    /** Real path of the repository's working tree root. */
    readonly topLevel: string,
    readonly file: string,
  ) {}

  /** The memory of the repository holding `repoPath` (any folder inside it). */
  static async forRepository(repoPath: string): Promise<RepositoryMemory> {
    const { topLevel, commonDir } = await locateRepo(repoPath);
    return new RepositoryMemory(topLevel, path.join(commonDir, "swarmboard", "memory.jsonl"));
  }

  async read(): Promise<MemoryRead> {
    const { memories, problems } = await this.decoded();
    return { memories, problems };
  }

  private async decoded(): Promise<DecodedMemories> {
    const text = await readFile(this.file, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return "";
      throw error;
    });
    return decodeMemories(text, this.file);
  }

  /** Adds memories new by id and by content; returns how many were added. */
  async add(memories: readonly Memory[]): Promise<number> {
    const valid = memories.map((m) => memorySchema.parse(m));
    return this.change((current) => mergeMemories(current, valid)).then(({ before, after }) => after - before);
  }

  /**
   * Deletes memories by id; returns the ids deleted, those that were not there, and the lines it could not read
   * (kept in the file as they were).
   */
  async delete(ids: readonly string[]): Promise<{ deleted: string[]; unknown: string[]; problems: string[] }> {
    const wanted = new Set(ids);
    const deleted: string[] = [];
    const { problems } = await this.change((current) =>
      current.filter((m) => {
        if (!wanted.has(m.id)) return true;
        deleted.push(m.id);
        return false;
      }),
    );
    return { deleted, unknown: ids.filter((id) => !deleted.includes(id)), problems };
  }

  /** Rewrites the file under the lock; lines that could not be read, and a torn last line, are carried over. */
  private async change(
    edit: (current: Memory[]) => Memory[],
  ): Promise<{ before: number; after: number; problems: string[] }> {
    await mkdir(path.dirname(this.file), { recursive: true });
    const release = await this.lock();
    try {
      const { memories, problems, kept } = await this.decoded();
      const next = edit(memories);
      const temporary = `${this.file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temporary, encodeMemories(next, kept));
      await rename(temporary, this.file);
      return { before: memories.length, after: next.length, problems };
    } finally {
      await release();
    }
  }

  private async lock(): Promise<() => Promise<void>> {
    const lockFile = `${this.file}.lock`;
    const deadline = Date.now() + lockWaitMs;
    for (;;) {
      try {
        const handle = await open(lockFile, "wx");
        await handle.close();
        return () => unlink(lockFile).catch(() => undefined);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const age = await stat(lockFile).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > staleLockMs) await unlink(lockFile).catch(() => undefined);
      else if (Date.now() > deadline)
        throw new Error(
          `The repository's memory (${this.file}) stayed locked for ${lockWaitMs / 1000} s by ${lockFile}; ` +
            "if no Swarmboard swarm or command is writing memory now, delete the lock file and try again.",
        );
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
