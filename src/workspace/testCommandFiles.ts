// Reads the few files test-command detection looks at (src/core/testCommandDetection.ts) from a checkout.
// A file that cannot be read is absent, never an error: detection then finds less, and the launch says so.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { detectTestCommand, type DetectedTestCommand, type RepoTestFiles } from "../core/testCommandDetection";

const MAX_BYTES = 256_000;

async function text(dir: string, name: string): Promise<string | undefined> {
  try {
    const content = await readFile(path.join(dir, name), "utf8");
    return content.slice(0, MAX_BYTES);
  } catch {
    return undefined;
  }
}

/** The detection's files at `dir`, the checkout's root. */
export async function readRepoTestFiles(dir: string): Promise<RepoTestFiles> {
  const [packageJson, pytestIni, pyprojectToml, setupCfg, goMod, cargoToml, makefile, testsFolder] = await Promise.all([
    text(dir, "package.json"),
    text(dir, "pytest.ini"),
    text(dir, "pyproject.toml"),
    text(dir, "setup.cfg"),
    text(dir, "go.mod"),
    text(dir, "Cargo.toml"),
    text(dir, "Makefile").then(async (m) => m ?? (await text(dir, "makefile")) ?? (await text(dir, "GNUmakefile"))),
    readdir(path.join(dir, "tests")).catch(() => [] as string[]),
  ]);
  const files = { packageJson, pytestIni, pyprojectToml, setupCfg, goMod, cargoToml, makefile };
  return {
    ...Object.fromEntries(Object.entries(files).filter(([, v]) => v !== undefined)),
    testsFolder,
  };
}

/** The test command of the repository checked out at `dir`, or undefined. */
export async function detectRepoTestCommand(dir: string): Promise<DetectedTestCommand | undefined> {
  return detectTestCommand(await readRepoTestFiles(dir));
}
