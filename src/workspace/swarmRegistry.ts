// The repository's list of swarms: one small JSON file per swarm in `<git common dir>/swarmboard/swarms/`.
// Why there: the CLI and every VS Code window find it from any folder or worktree of the repository (the
// extension's own storage is per window and unknown to the CLI), git never shows it in `git status`, and it
// goes away with the repository. A record points at the swarm's state dir, which holds the rest.
// One file per swarm, written to a temporary name and renamed, so two processes never tear each other's record.
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { swarmRecordSchema, type SwarmOwner, type SwarmRecord } from "../protocol/swarmRecord";
import { checkId } from "./branchNames";
import { processIdentity, sameProcess } from "./processAlive";
import { locateRepo } from "./repoFacts";

export interface RegistryRead {
  readonly records: SwarmRecord[];
  /** Files that could not be read, with what to do about them. */
  readonly problems: string[];
}

/** The owner of a swarm run in this process. */
export function thisProcessOwner(): SwarmOwner {
  ownIdentity ??= { started: processIdentity(process.pid) };
  const { started } = ownIdentity;
  return { pid: process.pid, host: os.hostname(), ...(started !== undefined ? { started } : {}) };
}

/** This process's identity, asked once (on macOS it runs `ps`). */
let ownIdentity: { started: string | undefined } | undefined;

/** Whether the owner is alive: "unknown" when it ran on another host. */
export function ownerLiveness(owner: SwarmOwner): "alive" | "dead" | "unknown" {
  if (owner.host !== os.hostname()) return "unknown";
  // Another user's process is alive; a zombie (a SIGKILLed server not yet reaped) is dead, and so is a process that
  // holds the owner's pid now but is not the owner (a reboot, pids wrapped around).
  return sameProcess(owner.pid, owner.started) ? "alive" : "dead";
}

export class SwarmRegistry {
  private constructor(
    /** Real path of the repository's working tree root. */
    readonly topLevel: string,
    readonly dir: string,
  ) {}

  /** The registry of the repository holding `repoPath` (any folder inside it). */
  static async forRepository(repoPath: string): Promise<SwarmRegistry> {
    const { topLevel, commonDir } = await locateRepo(repoPath);
    return new SwarmRegistry(topLevel, path.join(commonDir, "swarmboard", "swarms"));
  }

  private fileOf(swarmId: string): string {
    return path.join(this.dir, `${checkId("swarm", swarmId)}.json`);
  }

  async read(): Promise<RegistryRead> {
    const names = await readdir(this.dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return [];
      throw error;
    });
    const records: SwarmRecord[] = [];
    const problems: string[] = [];
    for (const name of names.filter((n) => n.endsWith(".json")).sort()) {
      const file = path.join(this.dir, name);
      try {
        records.push(swarmRecordSchema.parse(JSON.parse(await readFile(file, "utf8"))));
      } catch (error) {
        problems.push(
          `${file} is not a swarm record (${(error as Error).message.slice(0, 200)}); move it away to hide this.`,
        );
      }
    }
    return { records, problems };
  }

  async get(swarmId: string): Promise<SwarmRecord | undefined> {
    try {
      return swarmRecordSchema.parse(JSON.parse(await readFile(this.fileOf(swarmId), "utf8")));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new Error(
        `The record of swarm ${swarmId} (${this.fileOf(swarmId)}) cannot be read: ${(error as Error).message}`,
      );
    }
  }

  /** Writes the whole record (atomically: a reader sees the old or the new file, never half of one). */
  async write(record: SwarmRecord): Promise<void> {
    const valid = swarmRecordSchema.parse(record);
    await mkdir(this.dir, { recursive: true });
    const file = this.fileOf(valid.swarmId);
    const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temporary, JSON.stringify(valid, null, 2) + "\n");
    await rename(temporary, file);
  }

  /** Changes a record; a missing one is an error that names the swarm. */
  async update(swarmId: string, change: (record: SwarmRecord) => SwarmRecord): Promise<SwarmRecord> {
    const record = await this.get(swarmId);
    if (record === undefined) throw new Error(`There is no swarm ${swarmId} in the registry of ${this.topLevel}.`);
    const next = change(record);
    await this.write(next);
    return next;
  }
}
