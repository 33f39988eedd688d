// `swarmboard memory list | search <words> | delete <id>...`: the repository's memory across swarms, the same
// file the swarms and VS Code read. Each memory is shown with whether it still holds at HEAD (valid, or stale
// with the files that changed since) and where it came from.
import type { JudgedMemory } from "../protocol/memory";
import { memoryIdSchema } from "../protocol/memory";
import { deleteMemories, listMemories, type MemoryListing } from "../worker/memoryService";
import { readFlags, UsageError } from "./flagParsing";
import { checkWorkspace, InputError } from "./inputChecks";

export const memoryUsage =
  "memory expects `list`, `search <words>` or `delete <memory-id>...`, each with an optional --workspace <dir>.";

function memoryLines(judged: JudgedMemory): string[] {
  const { memory, status, changed } = judged;
  const files = memory.files.map((f) => `${f.path}@${f.blob.slice(0, 7)}`).join(", ");
  const text = memory.text.replace(/\s+/g, " ").trim();
  return [
    `${memory.id}  ${memory.kind}  ${status === "valid" ? "valid" : `STALE (changed: ${changed.join(", ")})`}`,
    `    from:  swarm ${memory.swarmId}, ${memory.agent}, ${new Date(memory.postedAt).toISOString()}`,
    `    files: ${files}`,
    `    text:  ${text.length > 300 ? `${text.slice(0, 300)}...` : text}`,
  ];
}

function print(listing: MemoryListing, empty: string): void {
  for (const p of listing.problems) process.stderr.write(`warning: ${p}\n`);
  if (listing.memories.length === 0) process.stdout.write(`${empty}\n`);
  for (const judged of listing.memories) process.stdout.write(memoryLines(judged).join("\n") + "\n");
  const stale = listing.memories.filter((m) => m.status === "stale").length;
  if (listing.memories.length > 0)
    process.stdout.write(
      `${listing.memories.length} memories (${stale} stale at HEAD ${listing.commit.slice(0, 10)}) in ${listing.file}\n`,
    );
}

/** Splits the words of a subcommand from its flags (`--workspace <dir>`). */
function wordsAndWorkspace(argv: string[]): { words: string[]; workspace?: string } {
  const at = argv.findIndex((a) => a.startsWith("--"));
  const words = at < 0 ? argv : argv.slice(0, at);
  const f = readFlags(at < 0 ? [] : argv.slice(at), new Set(["--workspace"]), new Set());
  return { words, workspace: f.get("--workspace") };
}

export async function memoryCommand(argv: string[], cwd: string): Promise<number> {
  const [sub, ...rest] = argv;
  const { words, workspace: given } = wordsAndWorkspace(rest);
  if (sub !== "list" && sub !== "search" && sub !== "delete") throw new UsageError(memoryUsage);
  const workspace = await checkWorkspace(given ?? cwd);
  if (sub === "list") {
    if (words.length > 0) throw new UsageError(`memory list takes no words (got "${words.join(" ")}"); try search.`);
    print(await listMemories(workspace), `No memories are kept for ${workspace} yet.`);
    return 0;
  }
  if (sub === "search") {
    const query = words.join(" ").trim();
    if (query === "") throw new UsageError("memory search expects words to search for.");
    print(await listMemories(workspace, query), `No memory shares a word with "${query}".`);
    return 0;
  }
  if (words.length === 0) throw new UsageError("memory delete expects one or more memory ids (see `memory list`).");
  for (const id of words)
    if (!memoryIdSchema.safeParse(id).success)
      throw new UsageError(`"${id}" is not a memory id (they look like m-0123456789ab; see \`memory list\`).`);
  const { deleted, unknown, problems } = await deleteMemories(workspace, words);
  for (const p of problems) process.stderr.write(`warning: ${p}\n`);
  if (deleted.length > 0) process.stdout.write(`Deleted ${deleted.join(", ")}.\n`);
  if (unknown.length > 0)
    throw new InputError(
      `No memory ${unknown.join(", ")} in this repository; \`swarmboard memory list\` shows the ids.`,
    );
  return 0;
}
