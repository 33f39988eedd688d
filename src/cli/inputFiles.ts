// The files a run reads or appends to besides its model, checked before anything is written or loaded: the turn
// script (--script), the events trace (--events), a watch's trigger stream (--triggers) and rules
// (--trigger-rules). Each bad one is an InputError naming the file, what is wrong and what to give instead.
import { constants } from "node:fs";
import { access, readFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { triggerRulesSchema, type TriggerRules } from "../protocol/triggers";
import { turnScriptSchema, type TurnScript } from "../protocol/turnScript";
import { formatZodIssues } from "../protocol/zodIssues";
import { accessProblem, InputError, kindOf } from "./inputChecks";

/** A file that must exist and be read: its text, or an InputError that says why not. */
async function readInputFile(file: string, flag: string, what: string): Promise<string> {
  const kind = await kindOf(file);
  if (kind === "missing") throw new InputError(`${flag} ${file}: there is no such file. Give ${flag} ${what}.`);
  if (kind === "folder") throw new InputError(`${flag} ${file} is a folder. Give ${flag} ${what}.`);
  return readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new InputError(`${flag} ${file} cannot be read (${accessProblem(error)}). Give ${flag} ${what}.`);
  });
}

/** A JSON file checked by its schema: the value, or an InputError naming the file and the first problems. */
async function readJsonFile<T>(file: string, flag: string, what: string, schema: z.ZodType<T>): Promise<T> {
  const text = await readInputFile(file, flag, what);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${flag} ${file} is not JSON (${(error as Error).message}). Give ${flag} ${what}.`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new InputError(`${flag} ${file} is not ${what}: ${formatZodIssues(parsed.error, "(the file)")}.`);
  return parsed.data;
}

/** --script: the turn script, parsed and checked. */
export function readScriptFile(file: string, flag = "--script"): Promise<TurnScript> {
  return readJsonFile(
    path.resolve(file),
    flag,
    'a turn script (JSON: {"agents": {"agent-1": [calls...]}}, e.g. from `swarmboard replay-script`)',
    turnScriptSchema,
  );
}

/** --trigger-rules: the fast path's rules, parsed and checked. */
export function readTriggerRulesFile(file: string): Promise<TriggerRules> {
  return readJsonFile(path.resolve(file), "--trigger-rules", "a JSON file of trigger rules", triggerRulesSchema);
}

/** --triggers: a recorded trigger stream that exists and can be read (its lines are taken as triggers). */
export async function checkTriggersFile(file: string): Promise<string> {
  const resolved = path.resolve(file);
  await readInputFile(resolved, "--triggers", "a JSON-lines file of triggers, one a line");
  return resolved;
}

/** --events: a file the trace can be appended to (created when missing), never a folder. */
export async function checkEventsFile(file: string): Promise<string> {
  const resolved = path.resolve(file);
  const kind = await kindOf(resolved);
  if (kind === "folder")
    throw new InputError(
      `--events ${resolved} is a folder: give --events a file to write the trace to (e.g. ${path.join(resolved, "events.jsonl")}).`,
    );
  const target = kind === "file" ? resolved : path.dirname(resolved);
  if (kind === "missing" && (await kindOf(target)) !== "folder")
    throw new InputError(`--events ${resolved} cannot be created: the folder ${target} does not exist.`);
  await access(target, constants.W_OK).catch((error: NodeJS.ErrnoException) => {
    throw new InputError(`--events ${resolved} cannot be written (${target}: ${accessProblem(error)}).`);
  });
  return resolved;
}
