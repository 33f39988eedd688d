// `swarmboard replay-script <events.jsonl>`: the turn script that replays the calls of a run's events file
// (`run --script`). A file that cannot be read, or a line that is not a swarm event, is refused with the file
// and the line named; a torn last line (a run killed while it wrote) is skipped with a warning.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { scriptFromTrace } from "../core/traceScript";
import { swarmEventSchema, type SwarmEvent } from "../protocol/swarmEvents";
import { formatZodIssues } from "../protocol/zodIssues";
import { accessProblem, InputError, kindOf } from "./inputChecks";

/** The events of a trace, each line checked; `warn` hears of a torn last line that was skipped. */
export async function readEventsFile(file: string, warn: (line: string) => void): Promise<SwarmEvent[]> {
  const resolved = path.resolve(file);
  const kind = await kindOf(resolved);
  if (kind !== "file")
    throw new InputError(
      `${resolved} ${kind === "missing" ? "does not exist" : "is a folder"}: give replay-script a run's events file (events.jsonl in its state dir).`,
    );
  const text = await readFile(resolved, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new InputError(`${resolved} cannot be read (${accessProblem(error)}).`);
  });
  const lines = text.split("\n");
  const events: SwarmEvent[] = [];
  for (const [i, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const where = `${resolved}:${i + 1}`;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      // The last line without its newline was being written when the run was killed: the calls before it stand.
      if (i === lines.length - 1) {
        warn(`${where} is a torn last line (the run was killed while writing it); replaying the lines before it.`);
        break;
      }
      throw new InputError(`${where} is not JSON (${(error as Error).message}): the events file is damaged there.`);
    }
    const parsed = swarmEventSchema.safeParse(json);
    if (!parsed.success)
      throw new InputError(`${where} is not a swarm event: ${formatZodIssues(parsed.error, "(event)")}.`);
    events.push(parsed.data);
  }
  return events;
}

export async function replayScriptCommand(eventsFile: string): Promise<number> {
  const events = await readEventsFile(eventsFile, (line) => process.stderr.write(`warning: ${line}\n`));
  process.stdout.write(JSON.stringify(scriptFromTrace(events), null, 2) + "\n");
  return 0;
}
