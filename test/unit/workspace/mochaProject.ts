// A small JavaScript project as users have them: a real git repository whose `npm test` runs mocha from
// node_modules (a devDependency installed in the checkout, ignored by git), with one passing test and two
// failing ones. Mocha is this repository's own installed copy with the packages it needs, copied (not linked:
// a link would point into this repository, which the sandbox does not show).
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { git, tempDir, write } from "./gitFixture";

const here = (() => {
  let dir = __dirname;
  while (!existsSync(path.join(dir, "CONTRIBUTING.md"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the repository root above ${__dirname}`);
    dir = parent;
  }
  return dir;
})();

export const mathSource = `exports.add = (a, b) => a + b;
exports.mul = (a, b) => a + b;
exports.sub = (a, b) => b - a;
`;

const mathTests = `const assert = require("node:assert");
const { add, mul, sub } = require("../src/math");
describe("math", () => {
  it("adds", () => assert.strictEqual(add(2, 3), 5));
  it("multiplies", () => assert.strictEqual(mul(2, 3), 6));
  it("subtracts", () => assert.strictEqual(sub(5, 3), 2));
});
`;

/** The tests the fixture fails, as mocha names them. */
export const failingTests = ["math multiplies", "math subtracts"];

/** Where `name` is installed for a package at `fromDir` (node's lookup: nested node_modules, then upwards). */
function findPackage(name: string, fromDir: string, root: string): string | undefined {
  for (let dir = fromDir; dir.startsWith(root); dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (existsSync(path.join(candidate, "package.json"))) return candidate;
    if (dir === root) break;
  }
  return undefined;
}

/** Copies `name` and every package it depends on from this repository's node_modules into `target`. */
function copyInstalled(name: string, target: string): void {
  const queue = [findPackage(name, here, here)];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const dir = queue.shift();
    if (dir === undefined || seen.has(dir)) continue;
    seen.add(dir);
    cpSync(dir, path.join(target, path.relative(here, dir)), { recursive: true, dereference: true });
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
    };
    for (const dep of Object.keys(manifest.dependencies ?? {})) queue.push(findPackage(dep, dir, here));
  }
}

/** A new repository at a temp path with the project committed on `main` and mocha installed, not committed. */
export function makeMochaProject(): string {
  const dir = tempDir("mocha-project");
  git(dir, "-c", "init.defaultBranch=main", "init", "-q");
  write(
    dir,
    "package.json",
    JSON.stringify(
      {
        name: "mocha-project",
        version: "1.0.0",
        private: true,
        scripts: { test: "mocha" },
        devDependencies: { mocha: "*" },
      },
      null,
      2,
    ),
  );
  // With the slash, as most projects write it: a link named node_modules is not a folder, so this does not hide it.
  write(dir, ".gitignore", "node_modules/\n");
  write(dir, "src/math.js", mathSource);
  write(dir, "test/math.test.js", mathTests);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "math with two bugs");
  copyInstalled("mocha", dir);
  mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync("../mocha/bin/mocha.js", path.join(dir, "node_modules", ".bin", "mocha"));
  return dir;
}
