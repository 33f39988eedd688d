// The CLI's inputs, checked before anything is written: the workspace, the state dir and the model file. Each
// bad input is an InputError that says what is wrong and what to do; the CLI exits with code 2 on it.
import { constants } from "node:fs";
import { access, readdir, stat } from "node:fs/promises";
import path from "node:path";
import { checkRepository } from "../worker/repositoryCheck";
import { modelToolCallingRefusal } from "../worker/modelFiles";

/** A bad input: reported as its message alone (no usage text), exit code 2. */
export class InputError extends Error {
  override name = "InputError";
}

/** What is at a path; a path that cannot be looked at (no permission on a folder above it) is an input error. */
export async function kindOf(target: string): Promise<"missing" | "file" | "folder"> {
  return stat(target).then(
    (s) => (s.isDirectory() ? "folder" : "file"),
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ENOTDIR") return "missing";
      throw new InputError(
        `${target} cannot be looked at (${accessProblem(error)}): check the path and its permissions.`,
      );
    },
  );
}

/** The repository's folder: it exists, is a folder, is inside a git working tree with a first commit. */
export async function checkWorkspace(workspace: string, flag = "--workspace"): Promise<string> {
  const dir = path.resolve(workspace);
  const kind = await kindOf(dir);
  if (kind === "missing")
    throw new InputError(`The workspace ${dir} does not exist: give ${flag} the folder of a git repository.`);
  if (kind === "file")
    throw new InputError(
      `The workspace ${dir} is a file, not a folder: give ${flag} the folder of a git repository (or run from inside it).`,
    );
  try {
    await checkRepository(dir);
  } catch (error) {
    throw new InputError((error as Error).message);
  }
  return dir;
}

export function accessProblem(error: NodeJS.ErrnoException): string {
  if (error.code === "EROFS") return "it is on a read-only file system";
  if (error.code === "EACCES" || error.code === "EPERM") return "permission denied";
  return error.code ?? error.message;
}

/** A state dir for a new swarm: a folder that is writable (or can be made), empty of any earlier swarm. */
export async function checkNewStateDir(stateDir: string): Promise<string> {
  const dir = path.resolve(stateDir);
  const kind = await kindOf(dir);
  if (kind === "file")
    throw new InputError(
      `The state dir ${dir} is a file: give --state-dir a folder (a new one is created), outside the repository.`,
    );
  if (kind === "folder") {
    const held = (await readdir(dir)).filter((n) => n === "board.jsonl" || n === "settings.json");
    if (held.length > 0)
      throw new InputError(
        `The state dir ${dir} already holds a swarm (${held.join(", ")}): continue it with --resume --state-dir ${dir}, or give a new --state-dir.`,
      );
  }
  // The nearest folder that exists is where the state dir will be written (or created).
  let existing = dir;
  while ((await kindOf(existing)) === "missing" && path.dirname(existing) !== existing)
    existing = path.dirname(existing);
  if ((await kindOf(existing)) === "file")
    throw new InputError(
      `The state dir ${dir} cannot be created: ${existing} is a file. Give --state-dir another folder.`,
    );
  await access(existing, constants.W_OK).catch((error: NodeJS.ErrnoException) => {
    throw new InputError(
      `The state dir ${dir} cannot be written (${existing}: ${accessProblem(error)}). Give --state-dir a folder you can write.`,
    );
  });
  return dir;
}

/** The state dir of a swarm to resume: it must exist and be writable (the board and trace grow). */
export async function checkResumeStateDir(stateDir: string | undefined): Promise<string> {
  if (stateDir === undefined)
    throw new InputError(
      "--resume needs --state-dir <the state dir the interrupted run printed>; `swarmboard list` shows the repository's swarms and their state dirs.",
    );
  const dir = path.resolve(stateDir);
  const kind = await kindOf(dir);
  if (kind === "missing")
    throw new InputError(
      `There is no swarm to resume in ${dir}: the folder does not exist. Give --state-dir the folder an earlier run printed (see \`swarmboard list\`).`,
    );
  if (kind === "file") throw new InputError(`The state dir ${dir} is a file, not a swarm's state dir.`);
  await access(dir, constants.W_OK).catch((error: NodeJS.ErrnoException) => {
    throw new InputError(
      `The state dir ${dir} cannot be written (${accessProblem(error)}): the resumed swarm writes its board there.`,
    );
  });
  return dir;
}

/** The model file: exists and is a file (loading checks the rest and says what is wrong). */
export async function checkModelFile(modelPath: string): Promise<string> {
  const file = path.resolve(modelPath);
  const kind = await kindOf(file);
  if (kind === "missing")
    throw new InputError(`There is no model file at ${file}: give --model a .gguf file (or set SWARMBOARD_MODEL).`);
  if (kind === "folder") throw new InputError(`${file} is a folder: give --model a .gguf file.`);
  return file;
}

/**
 * A model its agents can drive: free-running agents act only through tool calls, so a model without a chat
 * template or without tool calling in it is refused with why and what to pick. A scripted run (--script) forces
 * every call's tokens and needs none of the model's own, so it is not asked.
 */
export async function checkModelCallsTools(modelFile: string, scripted: boolean): Promise<void> {
  if (scripted) return;
  const refusal = await modelToolCallingRefusal(modelFile).catch((error: Error) => {
    throw new InputError(`${modelFile} cannot be read as a GGUF model (${error.message}): give --model a .gguf file.`);
  });
  if (refusal === undefined) return;
  // The catalogue's names follow a refusal that says to pick another model, not one that says to download again.
  const pick = /Pick an instruct model/.test(refusal) ? " List them with `swarmboard model pull --list`." : "";
  throw new InputError(`${refusal}${pick}`);
}
