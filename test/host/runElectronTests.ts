// The same in-host suite in a desktop VS Code, for people who have one (`npm run test:electron`).
// @vscode/test-electron downloads VS Code unless VSCODE_EXECUTABLE names an installed one. Where neither
// works (offline CI: update.code.visualstudio.com cannot be reached), it fails with this message; the
// real-host tests there run in code-server instead (`npm run test:host`).
// First: git in this runner and everything it starts reads no machine config (isolatedGit.ts).
import "../isolatedGit";
import path from "node:path";
import { runTests } from "@vscode/test-electron";

const repoRoot = path.resolve(__dirname, "../../..");

async function main(): Promise<number> {
  const vscodeExecutablePath = process.env.VSCODE_EXECUTABLE;
  try {
    await runTests({
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: path.join(repoRoot, "out/test/host/suite/index.js"),
      launchArgs: ["--disable-extensions", "--disable-workspace-trust", "--skip-welcome", "--skip-release-notes"],
      version: "1.100.3",
      ...(vscodeExecutablePath ? { vscodeExecutablePath } : {}),
    });
    return 0;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    process.stderr.write(
      `test:electron: the desktop VS Code run failed: ${why}\n` +
        "  It needs a desktop VS Code: either network access to download 1.100.3, or VSCODE_EXECUTABLE=/path/to/code.\n" +
        "  Without one, run the same suite in code-server: `npm run test:host`.\n",
    );
    return 1;
  }
}

void main().then((code) => process.exit(code));
