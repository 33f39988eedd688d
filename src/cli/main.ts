// `swarmboard`: the headless runner on the same engine as the extension's worker. Each command (the table in
// src/cli/commandTable.ts) parses its flags and runs; `swarmboard <command> --help` prints its usage; bad input
// exits 2 with what to fix.
import { extensionVersion } from "../protocol/buildInfo";
import { UsageError } from "./args";
import { findCommand, helpAsked, usageOf } from "./commandTable";
import { InputError } from "./inputChecks";
import { exitCodes } from "./runCommand";
import { commandUsageText, usageText } from "./usageText";

async function main(argv: string[]): Promise<number> {
  try {
    const found = findCommand(argv);
    if (found) {
      if (helpAsked(found.rest)) {
        process.stdout.write(commandUsageText(found.command.usage));
        return 0;
      }
      return await found.command.run(found.rest, process.cwd());
    }
    const [first, ...rest] = argv;
    if (first === undefined || first === "--help" || first === "-h" || first === "help") {
      // `swarmboard help run`: that command's usage; `swarmboard help`: all of them.
      const usage = rest.length > 0 ? usageOf(rest) : undefined;
      process.stdout.write(usage ? commandUsageText(usage) : `swarmboard ${extensionVersion}\n\n${usageText}`);
      return 0;
    }
    if (first === "--version") {
      process.stdout.write(`${extensionVersion}\n`);
      return 0;
    }
    // `swarmboard model --help`: the usage of the commands it starts.
    const usage = helpAsked(rest) ? usageOf([first]) : undefined;
    if (usage) {
      process.stdout.write(commandUsageText(usage));
      return 0;
    }
    throw new UsageError(`unknown command "${argv.join(" ")}".`);
  } catch (error) {
    if (error instanceof InputError) {
      process.stderr.write(`swarmboard: ${error.message}\n`);
      return exitCodes.usage;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`swarmboard: ${error.message}\n\n${usageText}`);
      return exitCodes.usage;
    }
    process.stderr.write(`swarmboard: ${(error as Error).message}\n`);
    return exitCodes.failed;
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
