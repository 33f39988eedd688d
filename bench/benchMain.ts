// How every benchmark script ends: exit 0 when its main resolves, else print the error and exit 1 (2 for a usage
// error, whose message already says what to type).
import { BenchUsageError } from "./benchOptions";

export function runBenchMain(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof BenchUsageError ? error.message : error);
      process.exit(error instanceof BenchUsageError ? 2 : 1);
    },
  );
}
