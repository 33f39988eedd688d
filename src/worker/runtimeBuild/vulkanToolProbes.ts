// What a Vulkan build would use on this machine, found where CMake's FindVulkan finds it, so that the user's own
// choice is what is probed: the glslc and include folder named by node-llama-cpp's cmake-option variables, else
// those of $VULKAN_SDK, else the system's (glslc on PATH, /usr/local then /usr). glslc is asked to compile
// llama.cpp's own feature test for GL_KHR_cooperative_matrix (ggml-vulkan/vulkan-shaders/feature-tests/coopmat.comp,
// with the flags its CMakeLists.txt uses); the headers' version is read from vulkan_core.h. The decision is in
// src/core/vulkanToolsCheck.ts.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { glslcVariable, includeVariable, type GlslcFacts, type VulkanHeaderFacts } from "../../core/vulkanToolsCheck";

/** llama.cpp's feature test, byte for byte. */
const coopmatTest = "#version 460\n\n#extension GL_KHR_cooperative_matrix : require\n\nvoid main()\n{\n}\n";

const isWindows = process.platform === "win32";

function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv) {
  return spawnSync(command, args, { env, encoding: "utf8", timeout: 30_000, windowsHide: true });
}

/** The first `name` in PATH's folders (name.exe on Windows). */
function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const pathVar = Object.keys(env).find((key) => key.toUpperCase() === "PATH") ?? "PATH";
  const file = isWindows ? `${name}.exe` : name;
  for (const dir of (env[pathVar] ?? "").split(path.delimiter)) {
    if (dir !== "" && existsSync(path.join(dir, file))) return path.join(dir, file);
  }
  return undefined;
}

function whichGlslc(env: NodeJS.ProcessEnv): { path: string; from: string } | undefined {
  const named = env[glslcVariable];
  if (named) return { path: named, from: glslcVariable };
  if (env.VULKAN_SDK) {
    const inSdk = path.join(env.VULKAN_SDK, isWindows ? "Bin" : "bin", isWindows ? "glslc.exe" : "glslc");
    if (existsSync(inSdk)) return { path: inSdk, from: "VULKAN_SDK" };
  }
  const found = onPath("glslc", env);
  return found === undefined ? undefined : { path: found, from: "PATH" };
}

/** The glslc the build would use, its version and whether it compiles the cooperative-matrix test. */
export function probeGlslc(env: NodeJS.ProcessEnv): GlslcFacts | undefined {
  const glslc = whichGlslc(env);
  if (glslc === undefined) return undefined;
  const versionRun = run(glslc.path, ["--version"], env);
  if (versionRun.error !== undefined || versionRun.status !== 0) return { ...glslc, cooperativeMatrix: false };
  const version = `${versionRun.stdout}`.trim().split(/\r?\n/)[0]!;
  const dir = mkdtempSync(path.join(os.tmpdir(), "swarmboard-glslc-"));
  try {
    const shader = path.join(dir, "coopmat.comp");
    writeFileSync(shader, coopmatTest);
    const args = ["-o", path.join(dir, "coopmat.spv"), "-fshader-stage=compute", "--target-env=vulkan1.3", shader];
    const compiled = run(glslc.path, args, env);
    if (compiled.status === 0) return { ...glslc, version, cooperativeMatrix: true };
    const said = `${compiled.stderr}${compiled.stdout}`.split(/\r?\n/).find((line) => /error/i.test(line));
    const error = (said ?? compiled.error?.message ?? `exit ${String(compiled.status)}`).replace(
      shader,
      "coopmat.comp",
    );
    return { ...glslc, version, cooperativeMatrix: false, error: error.trim() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function systemPrefixes(): string[] {
  if (process.platform === "darwin") return ["/opt/homebrew", "/usr/local"];
  if (process.platform === "linux") return ["/usr/local", "/usr"];
  return [];
}

function whichHeaders(env: NodeJS.ProcessEnv): { includeDir: string; from: string } | undefined {
  const named = env[includeVariable];
  if (named) return { includeDir: named, from: includeVariable };
  const candidates = [
    ...(env.VULKAN_SDK
      ? [{ includeDir: path.join(env.VULKAN_SDK, isWindows ? "Include" : "include"), from: "VULKAN_SDK" }]
      : []),
    ...systemPrefixes().map((prefix) => ({ includeDir: path.join(prefix, "include"), from: "the system" })),
  ];
  return candidates.find((c) => existsSync(path.join(c.includeDir, "vulkan", "vulkan.h")));
}

/** The headers the build would compile against and their version (1.3.239: VK_HEADER_VERSION 239). */
export function probeVulkanHeaders(env: NodeJS.ProcessEnv): VulkanHeaderFacts | undefined {
  const headers = whichHeaders(env);
  if (headers === undefined) return undefined;
  let core: string;
  try {
    core = readFileSync(path.join(headers.includeDir, "vulkan", "vulkan_core.h"), "utf8");
  } catch {
    return headers;
  }
  const headerVersion = /^#define VK_HEADER_VERSION (\d+)/m.exec(core)?.[1];
  if (headerVersion === undefined) return headers;
  // "#define VK_HEADER_VERSION_COMPLETE VK_MAKE_API_VERSION(0, 1, 3, VK_HEADER_VERSION)"
  const api = /^#define VK_HEADER_VERSION_COMPLETE \w+\((?:\d+,\s*)?(\d+),\s*(\d+),\s*VK_HEADER_VERSION\)/m.exec(core);
  const version = api === null ? undefined : `${api[1]}.${api[2]}.${headerVersion}`;
  return { ...headers, headerVersion: Number(headerVersion), ...(version !== undefined ? { version } : {}) };
}

export function vulkanLibraryFound(env: NodeJS.ProcessEnv): boolean {
  const names = { win32: ["Lib/vulkan-1.lib"], darwin: ["lib/libvulkan.dylib"] }[process.platform as string] ?? [
    "lib/libvulkan.so",
    "lib64/libvulkan.so",
    `lib/${process.arch === "arm64" ? "aarch64" : "x86_64"}-linux-gnu/libvulkan.so`,
  ];
  const roots = [...(env.VULKAN_SDK ? [env.VULKAN_SDK] : []), ...systemPrefixes()];
  return roots.some((root) => names.some((name) => existsSync(path.join(root, name))));
}

/**
 * Whether CMake's find_package(SPIRV-Headers CONFIG) (ggml-vulkan's CMakeLists.txt) finds the package: in
 * $VULKAN_SDK (llama.cpp adds it to CMAKE_PREFIX_PATH), $CMAKE_PREFIX_PATH or the system prefixes. Linux only:
 * where the SDKs for macOS and Windows put it is not measured, and a wrong "missing" would refuse a build that works.
 */
export function spirvHeadersFound(env: NodeJS.ProcessEnv): boolean | undefined {
  if (process.platform !== "linux") return undefined;
  const triple = `${process.arch === "arm64" ? "aarch64" : "x86_64"}-linux-gnu`;
  const prefixes = [
    ...(env.VULKAN_SDK ? [env.VULKAN_SDK] : []),
    ...(env.CMAKE_PREFIX_PATH ?? "").split(path.delimiter).filter((p) => p !== ""),
    ...systemPrefixes(),
  ];
  const folders = ["share/cmake", "lib/cmake", "lib64/cmake", `lib/${triple}/cmake`];
  return prefixes.some((prefix) =>
    folders.some((folder) => existsSync(path.join(prefix, folder, "SPIRV-Headers", "SPIRV-HeadersConfig.cmake"))),
  );
}
