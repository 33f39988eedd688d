// `swarmboard <command> --help` (and -h) for every command of the CLI's command table: the built CLI as a user
// runs it prints that command's usage on stdout and exits 0 (nothing runs, nothing is written).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { cliCommands } from "../../../src/cli/commandTable";

const cli = path.resolve(__dirname, "../../../../dist/cli/main.js");

function runCli(...args: string[]) {
  assert.ok(existsSync(cli), `${cli} is missing: run npm run build first`);
  const out = spawnSync(process.execPath, [cli, ...args], {
    encoding: "utf8",
    input: "",
    timeout: 60_000,
    killSignal: "SIGKILL",
  });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

describe("cli: every command answers --help and -h with its usage", function () {
  this.timeout(120_000);

  it("the table names the commands a user types, each with its usage", () => {
    const names: string[] = cliCommands.map((c) => c.name);
    for (const name of [
      "run",
      "watch",
      "mcp",
      "eval",
      "list",
      "clean-up",
      "memory",
      "model pull",
      "replay-script",
      "replay",
    ])
      assert.ok(names.includes(name), `${name} is in the command table`);
    for (const c of cliCommands) assert.match(c.usage, new RegExp(`swarmboard ${c.name}\\b`), c.name);
  });

  for (const command of cliCommands)
    for (const flag of ["--help", "-h"])
      it(`swarmboard ${command.name} ${flag}`, () => {
        const out = runCli(...command.name.split(" "), flag);
        assert.equal(out.status, 0, out.stderr);
        assert.ok(out.stdout.includes(command.usage.trim()), `${command.name}'s usage on stdout:\n${out.stdout}`);
        assert.equal(out.stderr, "");
      });

  it("--help after other flags still asks for help (nothing runs)", () => {
    const out = runCli("run", "--goal", "fix it", "--help");
    assert.equal(out.status, 0, out.stderr);
    assert.match(out.stdout, /swarmboard run --goal <text>/);
  });
});
