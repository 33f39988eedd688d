// Which command runs a repository's tests, read from its files (a recipe without a testCommand verifies merges
// with it). Pure: the caller reads the few files named in RepoTestFiles (src/workspace/testCommandFiles.ts).
// The first match wins, in the order below: a JavaScript project's own script says most about how its
// authors run the tests, and `make test` is last because a Makefile's test target often wraps one of the others.

/** The files detection looks at; a file that is missing is undefined. */
export interface RepoTestFiles {
  readonly packageJson?: string;
  readonly pytestIni?: string;
  readonly pyprojectToml?: string;
  readonly setupCfg?: string;
  /** File names directly under tests/ (empty or absent when there is no such folder). */
  readonly testsFolder?: readonly string[];
  readonly goMod?: string;
  readonly cargoToml?: string;
  readonly makefile?: string;
}

export interface DetectedTestCommand {
  readonly command: string;
  /** Where it was found, for the launch's warning line ("package.json's test script"). */
  readonly source: string;
}

/** npm init's placeholder (`echo "Error: no test specified" && exit 1`): a project with it has no tests. */
const NPM_PLACEHOLDER = /no test specified/;

/** Whether package.json text has a real `test` script. */
export function hasNpmTestScript(packageJson: string): boolean {
  let manifest: unknown;
  try {
    manifest = JSON.parse(packageJson);
  } catch {
    return false;
  }
  if (typeof manifest !== "object" || manifest === null || !("scripts" in manifest)) return false;
  const scripts = manifest.scripts;
  if (typeof scripts !== "object" || scripts === null || !("test" in scripts)) return false;
  const test = scripts.test;
  return typeof test === "string" && test.trim() !== "" && !NPM_PLACEHOLDER.test(test);
}

/** Whether a Makefile has a `test` target (a rule line `test:`, also among several targets, not `test :=`). */
export function hasMakeTestTarget(makefile: string): boolean {
  return makefile.split("\n").some((line) => /^(?:[^\s:#=][^:#=]*\s)?test(?:\s[^:#=]*)?\s*::?(?!=)/.test(line));
}

/** Where pytest is configured or its tests are laid out, or undefined. */
function pytestSource(files: RepoTestFiles): string | undefined {
  if (files.pytestIni !== undefined) return "pytest.ini";
  if (files.pyprojectToml !== undefined && /^\[tool\.pytest(?:\.ini_options)?\]/m.test(files.pyprojectToml))
    return "pyproject.toml's [tool.pytest] section";
  if (files.setupCfg !== undefined && /^\[tool:pytest\]/m.test(files.setupCfg)) return "setup.cfg's [tool:pytest]";
  if ((files.testsFolder ?? []).some((name) => /^test_.*\.py$|_test\.py$/.test(name)))
    return "test_*.py files under tests/";
  return undefined;
}

/** The repository's test command, or undefined when none of the known layouts is there. */
export function detectTestCommand(files: RepoTestFiles): DetectedTestCommand | undefined {
  if (files.packageJson !== undefined && hasNpmTestScript(files.packageJson))
    return { command: "npm test", source: "package.json's test script" };
  const pytest = pytestSource(files);
  if (pytest !== undefined) return { command: "pytest", source: pytest };
  if (files.goMod !== undefined) return { command: "go test ./...", source: "go.mod" };
  if (files.cargoToml !== undefined) return { command: "cargo test", source: "Cargo.toml" };
  if (files.makefile !== undefined && hasMakeTestTarget(files.makefile))
    return { command: "make test", source: "the Makefile's test target" };
  return undefined;
}
