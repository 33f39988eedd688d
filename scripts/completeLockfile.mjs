// Adds lockfile entries for node-llama-cpp's prebuilt-binary packages of other platforms.
// Why: when the registry this machine reaches lacks those packages (only the linux ones are mirrored here),
// `npm install` leaves them out of package-lock.json, and `npm ci` then refuses the lockfile as out of sync.
// The entries carry `os`/`cpu`, so npm skips them on every other platform without fetching anything.
// Run it after any `npm install` that rewrites package-lock.json.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const file = path.resolve(import.meta.dirname, "..", "package-lock.json");
const lock = JSON.parse(readFileSync(file, "utf8"));
const packages = lock.packages;
const llama = packages["node_modules/node-llama-cpp"];
const platforms = {
  "linux-arm64": ["linux", "arm64"],
  "linux-armv7l": ["linux", "arm"],
  "linux-riscv64": ["linux", "riscv64"],
  "linux-x64": ["linux", "x64"],
  "linux-x64-cuda": ["linux", "x64"],
  "linux-x64-cuda-ext": ["linux", "x64"],
  "linux-x64-vulkan": ["linux", "x64"],
  "mac-arm64-metal": ["darwin", "arm64"],
  "mac-x64": ["darwin", "x64"],
  "win-arm64": ["win32", "arm64"],
  "win-x64": ["win32", "x64"],
  "win-x64-cuda": ["win32", "x64"],
  "win-x64-cuda-ext": ["win32", "x64"],
  "win-x64-vulkan": ["win32", "x64"],
};
let added = 0;
for (const name of Object.keys(llama.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  if (packages[key]) continue;
  const short = name.replace("@node-llama-cpp/", "");
  const [os, cpu] = platforms[short] ?? [];
  if (!os) throw new Error(`completeLockfile: no platform known for ${name}; add it to the table.`);
  const version = llama.optionalDependencies[name];
  packages[key] = {
    version,
    resolved: `https://registry.npmjs.org/${name}/-/${short}-${version}.tgz`,
    cpu: [cpu],
    license: "MIT",
    optional: true,
    os: [os],
    engines: { node: ">=20.0.0" },
  };
  added++;
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : 1)),
);
writeFileSync(file, JSON.stringify(lock, null, 2) + "\n");
console.log(`completeLockfile: added ${added} platform package entries`);
