// What this machine has for compiling the runtime, found by running each tool's --version and looking for the
// files a GPU toolkit installs (Vulkan's, with their versions, in vulkanToolProbes.ts): the facts
// src/core/buildToolsCheck.ts decides on. Each probe is one short child process with the caller's PATH, so a test
// can hide tools by giving a PATH without them.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { BuildGpu, BuildToolFacts, LinuxFamily } from "../../core/buildToolsCheck";
import { probeGlslc, probeVulkanHeaders, spirvHeadersFound, vulkanLibraryFound } from "./vulkanToolProbes";

/** What a tool prints for `args`, or undefined when it is not on PATH or fails. npm is npm.cmd on Windows, which
 * Node runs only through a shell. */
function output(command: string, args: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  const shell = process.platform === "win32" && command === "npm";
  const result = spawnSync(command, args, { env, shell, encoding: "utf8", timeout: 15_000, windowsHide: true });
  if (result.error !== undefined || result.status !== 0) return undefined;
  return `${result.stdout}${result.stderr}`.trim();
}

function firstLine(command: string, args: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  return output(command, args, env)?.split(/\r?\n/)[0];
}

/** The version a first line ends with ("g++ (Debian 12.2.0-14) 12.2.0"), else the first one in it. */
function versionIn(line: string | undefined): string | undefined {
  if (line === undefined) return undefined;
  return /(\d+\.\d+(?:\.\d+)?)\s*$/.exec(line)?.[1] ?? /(\d+\.\d+(?:\.\d+)?)/.exec(line)?.[1] ?? line;
}

/** The C++ compiler cmake would find first (c++ is what CMAKE_CXX_COMPILER defaults to on Unix). */
function compiler(env: NodeJS.ProcessEnv): string | undefined {
  for (const name of ["c++", "g++", "clang++"]) {
    const line = firstLine(name, ["--version"], env);
    if (line !== undefined) return `${name} ${versionIn(line)}`;
  }
  return undefined;
}

function linuxFamily(): LinuxFamily {
  let text = "";
  try {
    text = readFileSync("/etc/os-release", "utf8");
  } catch {
    return "other";
  }
  const ids = [/^ID=(.*)$/m, /^ID_LIKE=(.*)$/m]
    .map((re) => re.exec(text)?.[1]?.replace(/"/g, "") ?? "")
    .join(" ")
    .split(/\s+/);
  if (ids.some((id) => ["debian", "ubuntu"].includes(id))) return "debian";
  if (ids.some((id) => ["fedora", "rhel", "centos"].includes(id))) return "fedora";
  if (ids.includes("arch")) return "arch";
  return "other";
}

/** Visual Studio (or its Build Tools) with the C++ tools, as node-llama-cpp finds it: through vswhere. */
function msvcFound(env: NodeJS.ProcessEnv): boolean {
  const programFiles = env["ProgramFiles(x86)"] ?? "C:\\Program Files (x86)";
  const vswhere = path.join(programFiles, "Microsoft Visual Studio", "Installer", "vswhere.exe");
  const args = ["-latest", "-products", "*", "-requires", "Microsoft.VisualStudio.Component.VC.Tools.x86.x64"];
  return existsSync(vswhere) && (firstLine(vswhere, [...args, "-property", "installationPath"], env) ?? "") !== "";
}

/** Runs the probes a build for `gpu` needs (a GPU toolkit only when the build is for it). */
export function probeBuildTools(gpu: BuildGpu, nodeLlamaCppDir: string, env = process.env): BuildToolFacts {
  const platform = process.platform;
  return {
    platform,
    arch: process.arch,
    ...(platform === "linux" ? { linuxFamily: linuxFamily() } : {}),
    ...(platform === "win32" ? { msvc: msvcFound(env) } : { compiler: compiler(env) }),
    ...(platform === "darwin" ? { xcodeTools: firstLine("xcode-select", ["-p"], env) !== undefined } : {}),
    cmake: versionIn(firstLine("cmake", ["--version"], env)),
    npm: firstLine("npm", ["--version"], env) !== undefined,
    git: firstLine("git", ["--version"], env) !== undefined,
    sourceBundled: existsSync(path.join(nodeLlamaCppDir, "llama", "gitRelease.bundle")),
    ...(gpu === "cuda" ? { nvcc: /release (\d+\.\d+)/.exec(output("nvcc", ["--version"], env) ?? "")?.[1] } : {}),
    ...(gpu === "vulkan"
      ? {
          glslc: probeGlslc(env),
          vulkanHeaders: probeVulkanHeaders(env),
          vulkanLibrary: vulkanLibraryFound(env),
          spirvHeaders: spirvHeadersFound(env),
        }
      : {}),
  };
}
