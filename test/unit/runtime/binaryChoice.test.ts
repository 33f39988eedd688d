// The runtime loader's choice over platform x GPU x what the install carries: the order of binaries it tries, or why
// none serves. Each row is what a package built by `npm run package -- --target <t>` carries (or less).
import assert from "node:assert/strict";
import {
  binaryChoice,
  officialPackageFor,
  type BinaryChoiceInput,
  type GpuAsk,
} from "../../../src/runtime/binaryChoice";
import { gpuOfBuildKey } from "../../../src/runtime/binaryInventory";

const linuxX64Package = { patched: [false], official: ["linux-x64", "linux-x64-vulkan"] } as const;
/** With the cross-built patched runtime (scripts/buildRuntimeCross.mjs) it carries when the build cache had it. */
const linuxArm64Package = { patched: [false], official: ["linux-arm64"] } as const;
const macArmPackage = { patched: [], official: ["mac-arm64-metal"] } as const;
const macX64Package = { patched: [], official: ["mac-x64"] } as const;
const winPackage = { patched: [], official: ["win-x64", "win-x64-vulkan"] } as const;

function tries(input: Partial<BinaryChoiceInput> & Pick<BinaryChoiceInput, "platform" | "arch" | "present">): string {
  const choice = binaryChoice({ gpu: false, machineGpus: [], forceOfficial: false, ...input });
  if (choice.kind === "none") return `none: ${choice.why}`;
  return choice.tries
    .map((t) =>
      t.build === "patched-local-build" ? `patched/${String(t.gpu)}` : `${t.officialPackage}/${String(t.gpu)}`,
    )
    .join(" > ");
}

describe("binaryChoice", () => {
  const table: ReadonlyArray<[string, Parameters<typeof tries>[0], string]> = [
    ["linux-x64, CPU", { platform: "linux", arch: "x64", present: linuxX64Package }, "patched/false > linux-x64/false"],
    [
      "linux-x64, auto on a Vulkan machine: the patched CPU build first (shared cells), then the official Vulkan",
      { platform: "linux", arch: "x64", gpu: "auto", machineGpus: ["vulkan"], present: linuxX64Package },
      "patched/false > linux-x64-vulkan/vulkan > linux-x64/false",
    ],
    [
      "linux-x64, vulkan asked: only the official Vulkan binary serves it",
      { platform: "linux", arch: "x64", gpu: "vulkan", present: linuxX64Package },
      "linux-x64-vulkan/vulkan",
    ],
    [
      "linux-x64, vulkan asked, with a patched Vulkan build too",
      {
        platform: "linux",
        arch: "x64",
        gpu: "vulkan",
        present: { patched: [false, "vulkan"], official: ["linux-x64-vulkan"] },
      },
      "patched/vulkan > linux-x64-vulkan/vulkan",
    ],
    [
      "linux-x64 after a SIGILL: the official binaries only",
      { platform: "linux", arch: "x64", forceOfficial: true, present: linuxX64Package },
      "linux-x64/false",
    ],
    [
      "linux-arm64, CPU: the cross-built patched runtime first, the official binary as the fallback",
      { platform: "linux", arch: "arm64", present: linuxArm64Package },
      "patched/false > linux-arm64/false",
    ],
    [
      "linux-arm64 packaged without the cross build: the official binary (copy mode)",
      { platform: "linux", arch: "arm64", present: { patched: [], official: ["linux-arm64"] } },
      "linux-arm64/false",
    ],
    [
      "darwin-arm64, auto: Metal",
      { platform: "darwin", arch: "arm64", gpu: "auto", machineGpus: ["metal"], present: macArmPackage },
      "mac-arm64-metal/metal",
    ],
    ["darwin-x64, CPU", { platform: "darwin", arch: "x64", present: macX64Package }, "mac-x64/false"],
    [
      "win32-x64, auto on a CUDA machine without the CUDA package: Vulkan is not detected, so the CPU",
      { platform: "win32", arch: "x64", gpu: "auto", machineGpus: ["cuda"], present: winPackage },
      "win-x64/false",
    ],
    [
      "win32-x64, vulkan",
      { platform: "win32", arch: "x64", gpu: "vulkan", present: winPackage },
      "win-x64-vulkan/vulkan",
    ],
  ];
  for (const [what, input, expected] of table) {
    it(what, () => assert.equal(tries(input), expected));
  }

  it("says why nothing serves a GPU the package does not carry", () => {
    const why = tries({ platform: "linux", arch: "x64", gpu: "cuda", present: linuxX64Package });
    assert.equal(
      why,
      "none: this install carries neither a Swarmboard runtime built for cuda nor node-llama-cpp's official " +
        "@node-llama-cpp/linux-x64-cuda",
    );
    assert.match(
      tries({ platform: "darwin", arch: "arm64", gpu: false, present: macArmPackage }),
      /^none: .*the CPU nor any official node-llama-cpp binary \(none exists for darwin-arm64\)/,
    );
    assert.match(
      tries({ platform: "linux", arch: "x64", forceOfficial: true, present: { patched: [false], official: [] } }),
      /the CPU \(the patched runtime is skipped\) nor node-llama-cpp's official @node-llama-cpp\/linux-x64$/,
    );
  });

  it("names node-llama-cpp's package for each platform and GPU, and none where it has none", () => {
    const rows: Array<[string, string, GpuAsk, string | undefined]> = [
      ["linux", "x64", "cuda", "linux-x64-cuda"],
      ["win32", "x64", "cuda", "win-x64-cuda"],
      ["darwin", "arm64", "metal", "mac-arm64-metal"],
      ["darwin", "arm64", false, undefined],
      ["darwin", "x64", "metal", undefined],
      ["linux", "arm64", "vulkan", undefined],
    ];
    for (const [platform, arch, gpu, name] of rows) {
      assert.equal(
        officialPackageFor(platform, arch, gpu === "auto" ? false : gpu),
        name,
        `${platform}-${arch} ${gpu}`,
      );
    }
  });

  it("reads the GPU type from a patched build's key", () => {
    assert.equal(gpuOfBuildKey("nlc-3.22.1-native-a441047691e15ac0-linux-x64-gpu-false-cpu-portable\n"), false);
    assert.equal(gpuOfBuildKey("nlc-3.22.1-x-linux-x64-gpu-vulkan-cpu-portable"), "vulkan");
    assert.equal(gpuOfBuildKey("nlc-3.22.1-native-502da1fdc34fd8db-linux-arm64-gpu-false-cpu-armv8-a\n"), false);
    assert.equal(gpuOfBuildKey("nlc-3.22.1-x-linux-x64"), undefined);
  });
});
