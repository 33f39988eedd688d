// What each platform's package carries: vsce's target name, node-llama-cpp's official binary packages for it (the
// CPU one and the GPU variants that fit), and what is left out and why. test/unit/packaging/packageContents.test.ts
// checks built packages against its own statement of the same, not against this table.

/** Each package must stay within this (the README's promise; the Marketplace takes more). */
export const maxPackageBytes = 60 * 1000 * 1000;

export const packageTargets = {
  "linux-x64": {
    official: ["linux-x64", "linux-x64-vulkan"],
    leftOut: {
      "linux-x64-cuda":
        "its libggml-cuda.so is 159 MB (132 MB compressed), over the 60 MB package limit on its own; CUDA users " +
        "build the runtime for CUDA (`node scripts/buildRuntime.mjs --gpu cuda`) or use Vulkan",
    },
  },
  "linux-arm64": { official: ["linux-arm64"], leftOut: {} },
  "darwin-arm64": { official: ["mac-arm64-metal"], leftOut: {} },
  "darwin-x64": { official: ["mac-x64"], leftOut: {} },
  "win32-x64": {
    official: ["win-x64", "win-x64-vulkan"],
    leftOut: {
      "win-x64-cuda":
        "the same CUDA kernels as linux-x64-cuda (Linux's are 132 MB compressed), over the 60 MB package limit; " +
        "CUDA users build the runtime for CUDA or use Vulkan",
    },
  },
};

/** The native (.node) packages besides node-llama-cpp's that are only for one platform, by the target they serve. */
export const platformOnlyPackages = {
  "@reflink/reflink-linux-x64-gnu": "linux-x64",
  "@reflink/reflink-linux-arm64-gnu": "linux-arm64",
  "@reflink/reflink-darwin-arm64": "darwin-arm64",
  "@reflink/reflink-darwin-x64": "darwin-x64",
  "@reflink/reflink-win32-x64-msvc": "win32-x64",
};
