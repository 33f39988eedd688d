// Test-command detection from a repository's file texts: each layout, npm init's placeholder, the order when a
// repository has several, and the Makefile lines that are not a test target.
import { strict as assert } from "assert";
import { detectTestCommand, hasMakeTestTarget, hasNpmTestScript } from "../../../src/core/testCommandDetection";

const command = (files: Parameters<typeof detectTestCommand>[0]) => detectTestCommand(files)?.command;

describe("test-command detection", () => {
  it("reads a package.json test script, never npm init's placeholder", () => {
    assert.equal(hasNpmTestScript(JSON.stringify({ scripts: { test: "mocha" } })), true);
    assert.equal(
      hasNpmTestScript(JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } })),
      false,
    );
    assert.equal(hasNpmTestScript(JSON.stringify({ scripts: { build: "tsc" } })), false);
    assert.equal(hasNpmTestScript(JSON.stringify({ scripts: { test: "  " } })), false);
    assert.equal(hasNpmTestScript("{ not json"), false);
    assert.deepEqual(detectTestCommand({ packageJson: JSON.stringify({ scripts: { test: "node --test" } }) }), {
      command: "npm test",
      source: "package.json's test script",
    });
  });

  it("finds pytest by its config or by test files under tests/", () => {
    assert.equal(command({ pytestIni: "[pytest]\n" }), "pytest");
    assert.equal(
      command({ pyprojectToml: '[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n' }),
      "pytest",
    );
    assert.equal(command({ pyprojectToml: '[project]\nname = "x"\n' }), undefined);
    assert.equal(command({ setupCfg: "[tool:pytest]\ntestpaths = tests\n" }), "pytest");
    assert.equal(command({ testsFolder: ["__init__.py", "test_math.py"] }), "pytest");
    assert.equal(command({ testsFolder: ["math_test.py"] }), "pytest");
    assert.equal(command({ testsFolder: ["fixtures.json", "helper.py"] }), undefined);
  });

  it("finds go test, cargo test and make test", () => {
    assert.equal(command({ goMod: "module example.com/x\n" }), "go test ./...");
    assert.equal(command({ cargoToml: '[package]\nname = "x"\n' }), "cargo test");
    assert.equal(command({ makefile: "all: build\n\ntest: build\n\tgo test\n" }), "make test");
  });

  it("tells a Makefile test target from other lines that name test", () => {
    assert.equal(hasMakeTestTarget("test:\n\t./run\n"), true);
    assert.equal(hasMakeTestTarget("check test: all\n\t./run\n"), true);
    assert.equal(hasMakeTestTarget("test::\n\t./run\n"), true);
    assert.equal(hasMakeTestTarget("test := 1\nall:\n\t./run\n"), false);
    assert.equal(hasMakeTestTarget("TESTS = a b\nunit-test:\n\t./run\n"), false);
    assert.equal(hasMakeTestTarget("# test: not a rule\nbuild:\n"), false);
    assert.equal(hasMakeTestTarget("\ttest: inside a recipe\n"), false);
  });

  it("prefers the project's own script when a repository has several", () => {
    const files = {
      packageJson: JSON.stringify({ scripts: { test: "jest" } }),
      pytestIni: "[pytest]\n",
      makefile: "test:\n\tnpm test\n",
    };
    assert.equal(command(files), "npm test");
    assert.equal(command({ ...files, packageJson: "{}" }), "pytest");
    assert.equal(command({ makefile: "test:\n\t./t\n", goMod: "module x\n" }), "go test ./...");
    assert.equal(command({}), undefined);
  });
});
