// The headless source of a standing swarm on a real git repository: a commit on the person's branch gives the
// TODO/FIXME lines it added and one trigger per file it touched; nothing is taken before the first commit.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TriggerInput } from "../../../src/protocol/triggers";
import { pollUserBranch } from "../../../src/worker/standing/gitTriggerSource";
import type { CheckoutTestGround } from "../../../src/worker/swarm/swarmRun";

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", ["-c", "user.name=U", "-c", "user.email=u@example.invalid", ...args], { cwd });
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("worker: triggers from polling the person's branch", () => {
  it("takes the TODOs a new commit added and the files it touched", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "swarmboard-poll-"));
    writeFileSync(path.join(root, "a.js"), "export const a = 1;\n");
    git(root, "init", "-q", "-b", "main");
    git(root, "add", "-A");
    git(root, "commit", "-qm", "first");
    const taken: TriggerInput[] = [];
    const notes: string[] = [];
    // The source reads only the repository's folder and the recipe's test command (none here).
    const setup = { repo: { topLevel: root }, options: { recipe: {} } } as unknown as CheckoutTestGround;
    const stop = pollUserBranch(
      setup,
      100,
      async (t) => void taken.push(t),
      async (n) => void notes.push(n),
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(taken.length, 0, "the commit the watch started on is not news");
      writeFileSync(path.join(root, "a.js"), "export const a = 1;\n// TODO: name this better\n");
      writeFileSync(path.join(root, "b.md"), "notes\n");
      git(root, "add", "-A");
      git(root, "commit", "-qm", "second");
      await until(() => taken.length >= 3, "the commit's triggers");
      assert.deepEqual(
        taken.map((t) => [t.source, t.path, t.line]),
        [
          ["todo-commit", "a.js", 2],
          ["user-commit", "a.js", undefined],
          ["user-commit", "b.md", undefined],
        ],
      );
      assert.deepEqual(notes, []);
    } finally {
      stop();
    }
  });
});
