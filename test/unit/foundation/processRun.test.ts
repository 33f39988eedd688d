// The tests' way of running a child to its end (test/processRun.ts): a child past its deadline is killed with its
// process group, and the failure says what it printed and where it was stuck, so a hang in CI is a readable failure
// instead of a silent kill of the whole run at CI's limit.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { runNode } from "../../processRun";

describe("running a child with a deadline (the tests' runNode)", function () {
  this.timeout(30_000);

  it("returns the exit status and output of a child that ends in time", async () => {
    const out = await runNode(["-e", "process.stdout.write('out'); process.stderr.write('err'); process.exit(3)"], {
      timeoutMs: 20_000,
    });
    assert.deepEqual([out.status, out.stdout, out.stderr], [3, "out", "err"]);
  });

  it("kills a child spinning in a JavaScript loop and says it was busy, with its CPU time", async () => {
    const script = "console.log('started'); for (;;) {}";
    await assert.rejects(runNode(["-e", script], { timeoutMs: 1_500 }), (error: Error) => {
      assert.match(error.message, /ran past its 2 s and was killed/);
      assert.match(error.message, /stdout \(last 40 lines\):\nstarted/);
      assert.match(
        error.message,
        /event loop did not turn in 5 s after SIGUSR2: it was busy .* \([\d.]+ s of CPU by then\)/,
      );
      return true;
    });
  });

  it("kills a waiting child and a grandchild it started, with its stack and what kept it alive", async () => {
    const script = [
      "const { spawn } = require('node:child_process');",
      "const g = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });",
      "console.log('grandchild ' + g.pid);",
      "setInterval(() => {}, 1000);",
    ].join("\n");
    let grandchild = 0;
    await assert.rejects(runNode(["-e", script], { timeoutMs: 1_500 }), (error: Error) => {
      grandchild = Number(/grandchild (\d+)/.exec(error.message)?.[1]);
      assert.match(error.message, /JavaScript: /);
      assert.match(error.message, /open handles:[\s\S]*timer/);
      return true;
    });
    assert.ok(grandchild > 0, "the grandchild's pid was printed");
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Gone, or a zombie nobody has reaped yet (a container's init may not): either way it runs no more.
    const state = existsSync(`/proc/${grandchild}/stat`) ? readFileSync(`/proc/${grandchild}/stat`, "utf8") : "";
    assert.ok(state === "" || /\) Z /.test(state), `the grandchild ${grandchild} is gone: ${state}`);
  });
});
