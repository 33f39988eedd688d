// Test-command detection on real small repositories made here: a mocha project, a pytest layout, a Go module, a
// Cargo crate, a Makefile project, an npm-init project with no tests, and a folder with nothing to find.
import { strict as assert } from "assert";
import { detectRepoTestCommand } from "../../../src/workspace/testCommandFiles";
import { git, removeDir, tempDir, write } from "./gitFixture";
import { makeMochaProject } from "./mochaProject";

describe("test-command detection on real repositories", function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  /** A committed repository holding `files`. */
  function repo(files: Record<string, string>): string {
    const dir = tempDir("detect-tests");
    dirs.push(dir);
    git(dir, "-c", "init.defaultBranch=main", "init", "-q");
    for (const [rel, content] of Object.entries(files)) write(dir, rel, content);
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "project");
    return dir;
  }

  it("finds npm test in a mocha project", async () => {
    const dir = makeMochaProject();
    dirs.push(dir);
    assert.deepEqual(await detectRepoTestCommand(dir), { command: "npm test", source: "package.json's test script" });
  });

  it("finds pytest, go test, cargo test and make test", async () => {
    const pytest = repo({
      "src/calc.py": "def add(a, b):\n    return a + b\n",
      "tests/test_calc.py": "def test_add():\n    pass\n",
    });
    assert.deepEqual(await detectRepoTestCommand(pytest), {
      command: "pytest",
      source: "test_*.py files under tests/",
    });
    const pyproject = repo({
      "pyproject.toml": '[project]\nname = "calc"\n\n[tool.pytest.ini_options]\ntestpaths = ["t"]\n',
    });
    assert.equal((await detectRepoTestCommand(pyproject))?.command, "pytest");
    const go = repo({ "go.mod": "module example.com/calc\n\ngo 1.21\n", "calc_test.go": "package calc\n" });
    assert.equal((await detectRepoTestCommand(go))?.command, "go test ./...");
    const cargo = repo({ "Cargo.toml": '[package]\nname = "calc"\nversion = "0.1.0"\n', "src/lib.rs": "" });
    assert.equal((await detectRepoTestCommand(cargo))?.command, "cargo test");
    const make = repo({ Makefile: "CC = cc\n\nall: calc\n\ntest: all\n\t./calc --self-test\n", "calc.c": "" });
    assert.deepEqual(await detectRepoTestCommand(make), { command: "make test", source: "the Makefile's test target" });
  });

  it("finds nothing in an npm init project without tests or a plain folder", async () => {
    const npmInit = repo({
      "package.json": JSON.stringify({ name: "x", scripts: { test: 'echo "Error: no test specified" && exit 1' } }),
      Makefile: "build:\n\tcc x.c\n",
    });
    assert.equal(await detectRepoTestCommand(npmInit), undefined);
    assert.equal(await detectRepoTestCommand(repo({ "README.md": "# notes\n" })), undefined);
  });
});
