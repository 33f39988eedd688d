// edit_file's search/replace blocks on a real file in a real worktree: several blocks per call applied in
// order, each matching exactly once; a block that does not match is named and nothing is written.
import { callTool } from "./callTool";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { toolResultSchemas } from "../../../src/protocol/tools";
import { AgentWorkspace } from "../../../src/workspace/agentWorkspace";
import { CommandPolicy } from "../../../src/workspace/commandPolicy";
import { SwarmRepository } from "../../../src/workspace/swarmRepository";
import { cleanRepo, removeDir, tempDir } from "./gitFixture";

const original = [
  "export function mean(values) {",
  "  return values.reduce((a, b) => a + b, 0) / values.length;",
  "}",
  "",
  "export function median(values) {",
  "  const sorted = [...values].sort();",
  "  return sorted[Math.floor(sorted.length / 2)];",
  "}",
  "",
].join("\n");

describe("workspace: edit_file with search/replace blocks", function () {
  this.timeout(60_000);
  let repoDir = "";
  let stateDir = "";
  let ws: AgentWorkspace;
  const file = () => readFileSync(path.join(ws.worktree.path, "src/stats.js"), "utf8");

  before(async () => {
    repoDir = cleanRepo();
    stateDir = tempDir("state");
    const repo = await SwarmRepository.open({ repoPath: repoDir, stateDir, swarm: "eb" });
    await repo.start({ includeUncommitted: false });
    ws = await AgentWorkspace.open(repo, "a1", { policy: new CommandPolicy({ allow: [], ask: [], deny: [] }) });
  });
  after(() => {
    removeDir(repoDir);
    removeDir(stateDir);
  });

  beforeEach(async () => {
    const out = await callTool(ws, "write_file", { path: "src/stats.js", content: original });
    assert.ok(out.ok);
  });

  it("applies two blocks in one call, in order, and says where each starts", async () => {
    const out = await callTool(ws, "edit_file", {
      path: "src/stats.js",
      edits: [
        {
          search: "  const sorted = [...values].sort();",
          replace: "  const sorted = [...values].sort((a, b) => a - b);",
        },
        {
          search: "}\n\nexport function median",
          replace: "}\n\nexport function variance(values) {}\n\nexport function median",
        },
      ],
    });
    if (!out.ok) assert.fail(`${out.error.code}: ${out.error.message}`);
    const result = toolResultSchemas.edit_file.parse(out.result);
    assert.deepEqual(result.lines, [6, 3]);
    assert.match(file(), /sort\(\(a, b\) => a - b\)/);
    assert.match(file(), /export function variance\(values\) \{\}\n\nexport function median/);
  });

  it("names the block that does not match and writes nothing", async () => {
    const out = await callTool(ws, "edit_file", {
      path: "src/stats.js",
      edits: [
        {
          search: "  const sorted = [...values].sort();",
          replace: "  const sorted = [...values].sort((a, b) => a - b);",
        },
        { search: "export function mode(values) {", replace: "" },
      ],
    });
    assert.ok(!out.ok);
    assert.equal(out.error.code, "not-found");
    assert.match(out.error.message, /block 2 of 2 \(search starting "export function mode\(values\) \{"\)/);
    assert.match(out.error.message, /Nothing was changed/);
    assert.equal(file(), original, "the first block was not applied either");
  });

  it("refuses a block that matches twice, naming it and the lines", async () => {
    const out = await callTool(ws, "edit_file", {
      path: "src/stats.js",
      edits: [{ search: "(values) {", replace: "(xs) {" }],
    });
    assert.ok(!out.ok);
    assert.equal(out.error.code, "not-unique");
    assert.match(out.error.message, /the block .* occurs 2 times .*lines 1, 5/);
    assert.equal(file(), original);
  });

  it("refuses a call with no block at all", async () => {
    const out = await callTool(ws, "edit_file", { path: "src/stats.js", edits: [] });
    assert.ok(!out.ok);
    assert.match(out.error.message, /give edits/);
  });
});
