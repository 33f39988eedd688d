// A launch through the MCP server that the worker refuses (an unknown recipe) answers with why and leaves no
// empty state dir behind under the server's state root (each failed launch left one).
import assert from "node:assert/strict";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { McpSwarms } from "../../../src/cli/mcpSwarms";
import { cleanRepo, git, removeDir, tempDir } from "../workspace/gitFixture";

describe("cli: a refused MCP launch leaves no state dir", function () {
  this.timeout(60_000);

  it("answers an unknown recipe with an error and removes the state dir it made", async () => {
    const repo = cleanRepo();
    git(repo, "config", "user.name", "Test User");
    git(repo, "config", "user.email", "user@example.invalid");
    const dir = tempDir("mcp-refused");
    const model = path.join(dir, "model.gguf");
    writeFileSync(model, "not loaded: the recipe is refused first");
    const stateRoot = path.join(dir, "states");
    const swarms = new McpSwarms({
      modelPath: model,
      workspace: repo,
      stateRoot,
      threads: 1,
      approveAsks: false,
      agentRules: false,
      log: () => {},
    });
    try {
      const answer = await swarms.launch({ goal: "tidy up", recipe: "no-such-recipe" });
      assert.equal(answer.ok, false);
      assert.match(answer.text, /The swarm did not start .*no-such-recipe/s);
      assert.ok(!existsSync(stateRoot) || readdirSync(stateRoot).length === 0, "no state dir is left");
    } finally {
      swarms.dispose();
      removeDir(repo);
      removeDir(dir);
    }
  });
});
