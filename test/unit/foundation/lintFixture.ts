// Lints a fixture of test/fixtures/lint through ESLint's own Node API with the project's real config, as if the
// fixture lived at `filePath` (so the layer and runtime-seal rules see it where it pretends to be).
import { readFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";

const repoRoot = path.resolve(__dirname, "../../../..");
const fixtures = path.join(repoRoot, "test/fixtures/lint");

/** The messages, as `rule: message`. */
export async function lintAs(fixture: string, filePath: string): Promise<string[]> {
  const code = readFileSync(path.join(fixtures, fixture), "utf8");
  const eslint = new ESLint({ cwd: repoRoot });
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, filePath) });
  return result.messages.map((m) => `${m.ruleId ?? "parse"}: ${m.message}`);
}
