// The CLI's commands in one table: the words that name each, its usage (src/cli/usageText.ts) and its handler
// (its flags parsed, then run). main.ts dispatches through it, and `swarmboard <command> --help` (or -h) prints
// the command's usage from it without running anything.
import { parseCleanUp, parseList, parseMcp, parseModelPull, parseReplayScript } from "./args";
import { parseEval } from "./evalArgs";
import { evalCommand } from "./evalCommand";
import { cleanUpCommand, listCommand } from "./historyCommands";
import { mcpCommand } from "./mcpServer";
import { memoryCommand } from "./memoryCommands";
import { pullCommand, pullListCommand } from "./modelCommands";
import { parseReplay, replayCommand } from "./replayCommand";
import { replayScriptCommand } from "./replayScript";
import { parseRun, parseWatch } from "./runArgs";
import { runCommand } from "./runCommand";
import { parseRuntimeBuild, runtimeBuildCommand } from "./runtimeCommand";
import { parseServe, serveCommand } from "./serveCommand";
import { commandUsage, type CommandName } from "./usageText";

export interface CliCommandEntry {
  /** The words a user types: `run`, `model pull`. */
  readonly name: CommandName;
  /** Its usage, as `swarmboard <name> --help` prints it. */
  readonly usage: string;
  /** Parses the arguments after the name and runs the command; resolves with the exit code. */
  run(argv: string[], cwd: string): Promise<number>;
}

function entry(name: CommandName, run: (argv: string[], cwd: string) => Promise<number> | number): CliCommandEntry {
  return { name, usage: commandUsage[name], run: async (argv, cwd) => run(argv, cwd) };
}

export const cliCommands: readonly CliCommandEntry[] = [
  entry("run", (argv) => runCommand(parseRun(argv))),
  entry("watch", (argv) => runCommand(parseWatch(argv))),
  entry("mcp", (argv) => mcpCommand(parseMcp(argv))),
  entry("eval", (argv) => evalCommand(parseEval(argv))),
  entry("list", (argv, cwd) => listCommand(parseList(argv), cwd)),
  entry("clean-up", (argv, cwd) => cleanUpCommand(parseCleanUp(argv), cwd)),
  entry("memory", (argv, cwd) => memoryCommand(argv, cwd)),
  entry("model pull", (argv) => {
    const opts = parseModelPull(argv);
    return opts.command === "pull" ? pullCommand(opts) : pullListCommand(opts);
  }),
  entry("replay-script", (argv) => replayScriptCommand(parseReplayScript(argv).events)),
  entry("replay", (argv) => replayCommand(parseReplay(argv))),
  entry("serve", (argv) => serveCommand(parseServe(argv))),
  entry("runtime build", (argv) => runtimeBuildCommand(parseRuntimeBuild(argv))),
];

/** The command the arguments name, and the arguments after its name; undefined when none does. */
export function findCommand(argv: readonly string[]): { command: CliCommandEntry; rest: string[] } | undefined {
  for (const command of cliCommands) {
    const words = command.name.split(" ");
    if (words.every((w, i) => argv[i] === w)) return { command, rest: argv.slice(words.length) };
  }
  return undefined;
}

/** Whether a command's arguments ask for its usage: `--help` or `-h` anywhere (help wins over running). */
export function helpAsked(argv: readonly string[]): boolean {
  return argv.includes("--help") || argv.includes("-h");
}

/** The usage of every command whose name starts with these words (`swarmboard model --help`, `help run`). */
export function usageOf(words: readonly string[]): string | undefined {
  const found = cliCommands.filter((c) => words.every((w, i) => c.name.split(" ")[i] === w));
  return found.length === 0 ? undefined : found.map((c) => c.usage).join("");
}
