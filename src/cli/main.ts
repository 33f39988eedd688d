// Placeholder for the headless runner (`swarmboard run ...`), which will drive the same worker as the
// extension. It prints its usage and says plainly that `run` is not built yet.
import { extensionVersion } from "../protocol/buildInfo";

const usage = `swarmboard ${extensionVersion}

Usage:
  swarmboard run --goal <text> [--recipe <file>] [--model <file.gguf>]   run a swarm headless (not built yet)
  swarmboard --version                                                    print the version
  swarmboard --help                                                       print this help
`;

function main(argv: string[]): number {
  const [first] = argv;
  if (first === undefined || first === "--help" || first === "-h") {
    process.stdout.write(usage);
    return first === undefined ? 1 : 0;
  }
  if (first === "--version") {
    process.stdout.write(`${extensionVersion}\n`);
    return 0;
  }
  if (first === "run") {
    process.stderr.write(`swarmboard: "run" is not built yet in version ${extensionVersion}; nothing was started.\n`);
    return 2;
  }
  process.stderr.write(`swarmboard: unknown command "${first}".\n\n${usage}`);
  return 1;
}

process.exitCode = main(process.argv.slice(2));
