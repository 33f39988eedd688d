// Bundles the four entry points with esbuild. node-llama-cpp stays external: it loads a native
// addon and its own binaries at run time, so it is shipped as a dependency, not bundled.
import { build } from "esbuild";
import { existsSync, mkdirSync, copyFileSync, readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const watch = process.argv.includes("--watch");
const production = process.argv.includes("--production");

const common = {
  bundle: true,
  sourcemap: production ? false : "linked",
  minify: production,
  logLevel: "info",
  define: { SWARMBOARD_VERSION: JSON.stringify(version) },
  absWorkingDir: root,
};

const node = { ...common, platform: "node", format: "cjs", target: "node20", external: ["vscode", "node-llama-cpp"] };

const targets = [
  { ...node, entryPoints: ["src/host/extension.ts"], outfile: "dist/host/extension.js" },
  { ...node, entryPoints: ["src/worker/main.ts"], outfile: "dist/worker/main.js" },
  { ...node, entryPoints: ["src/cli/main.ts"], outfile: "dist/cli/main.js", banner: { js: "#!/usr/bin/env node" } },
  {
    ...common,
    platform: "browser",
    format: "iife",
    target: "es2022",
    entryPoints: ["webview/main.ts"],
    outfile: "dist/webview/main.js",
  },
];
if (existsSync(path.join(root, "bench/runtimeBench.ts"))) {
  targets.push({ ...node, entryPoints: ["bench/runtimeBench.ts"], outfile: "dist/bench/runtimeBench.js" });
  targets.push({ ...node, entryPoints: ["bench/kvTypeFit.ts"], outfile: "dist/bench/kvTypeFit.js" });
  targets.push({ ...node, entryPoints: ["bench/relaunchTrunk.ts"], outfile: "dist/bench/relaunchTrunk.js" });
  targets.push({ ...node, entryPoints: ["bench/memorySplit.ts"], outfile: "dist/bench/memorySplit.js" });
  targets.push({ ...node, entryPoints: ["bench/routerBatching.ts"], outfile: "dist/bench/routerBatching.js" });
  targets.push({ ...node, entryPoints: ["bench/stepProfile.ts"], outfile: "dist/bench/stepProfile.js" });
  targets.push({ ...node, entryPoints: ["bench/serverVsWorkers.ts"], outfile: "dist/bench/serverVsWorkers.js" });
}

for (const t of targets) {
  if (!existsSync(path.join(root, t.entryPoints[0]))) {
    console.error(`build: missing entry point ${t.entryPoints[0]}`);
    process.exit(1);
  }
}

await Promise.all(targets.map((t) => build(t)));
mkdirSync(path.join(root, "dist/webview"), { recursive: true });
copyFileSync(path.join(root, "webview/main.css"), path.join(root, "dist/webview/main.css"));
// The codicon font and its stylesheet, so the panel draws VS Code's own icons (imported by main.css).
for (const file of ["codicon.css", "codicon.ttf"]) {
  copyFileSync(path.join(root, "node_modules/@vscode/codicons/dist", file), path.join(root, "dist/webview", file));
}
if (watch) console.log("build: --watch is not supported; run `npm run build` again");
