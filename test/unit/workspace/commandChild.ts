// A stand-in for the worker: runs one long command inside bubblewrap and one without, at the same time, so that a
// test can kill this process with SIGKILL and check that no process of either command lives on. Usage:
//   node commandChild.js <dir> <token>
// Each command writes `<dir>/<sandboxed|plain>/started` once its processes (four `sleep <token>`: two background
// children, one in its own session (`setsid`) and one double-forked, whose parent is gone) are running.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { probeBubblewrap, type BubblewrapProbe } from "../../../src/workspace/bubblewrap";
import { runShellCommand } from "../../../src/workspace/commandRunner";

async function main(): Promise<void> {
  const [dir, token] = process.argv.slice(2);
  if (!dir || !token) throw new Error("usage: commandChild <dir> <token>");
  const probe = await probeBubblewrap();
  if (!probe.usable) throw new Error(`bubblewrap is not usable: ${probe.reason}`);
  const plain: BubblewrapProbe = { usable: false, installed: true, reason: "the unsandboxed case" };
  const command = `sleep ${token} & sleep ${token} & setsid sleep ${token} & (sleep ${token} &); echo started > started; wait`;
  await Promise.all(
    (["sandboxed", "plain"] as const).map((name) => {
      const cwd = path.join(dir, name);
      mkdirSync(cwd, { recursive: true });
      const sandbox = name === "sandboxed" ? probe : plain;
      return runShellCommand({ command, cwd, sandbox, timeoutMs: 600_000, maxOutputBytes: 10_000 });
    }),
  );
}

main().catch((err) => {
  process.stderr.write(`commandChild: ${(err as Error).stack}\n`);
  process.exit(1);
});
