// The facts the launch wizard suggests a recipe from, read from real repositories: a mocha project with failing
// tests and a TODO, and a folder whose package.json has only npm init's placeholder.
import { strict as assert } from "assert";
import { suggestRecipe } from "../../../src/core/recipeSuggestion";
import { RpcPeer } from "../../../src/core/rpc/rpcPeer";
import { createInProcessTransportPair } from "../../../src/core/rpc/transport";
import { projectFactsMethod } from "../../../src/protocol/swarmRpc";
import { serveModels } from "../../../src/worker/reviewAndModelRpc";
import { gatherProjectFacts, packageTestCommand } from "../../../src/workspace/projectFacts";
import { git, removeDir, tempDir, write } from "./gitFixture";
import { makeMochaProject } from "./mochaProject";

describe("project facts for the recipe suggestion", function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("finds npm test and the TODOs at HEAD of a mocha project with failing tests", async () => {
    const dir = makeMochaProject();
    dirs.push(dir);
    write(dir, "src/extra.js", "// TODO: handle negatives\nexports.x = 1; // FIXME round\n");
    git(dir, "add", "src/extra.js");
    git(dir, "commit", "-q", "-m", "extra");
    // Uncommitted TODOs are not counted: the swarm starts from HEAD.
    write(dir, "src/draft.js", "// TODO later\n");
    const facts = await gatherProjectFacts(dir);
    assert.deepEqual(facts, { testCommand: "npm test", todoComments: 2 });
    const s = suggestRecipe("Make the failing mocha tests pass", facts);
    assert.equal(s.recipe, "fix-failing-tests");
    assert.match(s.reason, /npm test/);
    // The wizard asks the worker for them: the same facts through the method's schemas.
    const [hostEnd, workerEnd] = createInProcessTransportPair();
    const served = serveModels(new RpcPeer(workerEnd));
    try {
      assert.deepEqual(await new RpcPeer(hostEnd).request(projectFactsMethod, { workspace: dir }), facts);
    } finally {
      served.forEach((d) => d.dispose());
    }
  });

  it("leaves out what it cannot read: no test script, no repository", async () => {
    const dir = tempDir("project-facts");
    dirs.push(dir);
    write(dir, "package.json", JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }));
    assert.equal(await packageTestCommand(dir), undefined);
    assert.deepEqual(await gatherProjectFacts(dir), {});
    write(dir, "package.json", "{ not json");
    assert.deepEqual(await gatherProjectFacts(dir), {});
  });
});
