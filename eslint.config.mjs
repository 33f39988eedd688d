// Lint: typescript-eslint's recommended rules, the house rules of STYLE.md, and the layer rule
// (eslint-rules/layers.mjs) that keeps `vscode` in src/host, `node-llama-cpp` in src/runtime, src/core pure, and the
// runtime's seal (eslint-rules/runtimeSeal.mjs): the engines apart, the runtime reached only through its port.
import tseslint from "typescript-eslint";
import { swarmboardPlugin } from "./eslint-rules/layers.mjs";
import { runtimeSealRule } from "./eslint-rules/runtimeSeal.mjs";

export default tseslint.config(
  { ignores: ["node_modules/**", "out/**", "dist/**", "test/host/code-server/**", "media/**", "**/*.js", "**/*.cjs"] },
  ...tseslint.configs.recommended,
  {
    plugins: { swarmboard: { rules: { ...swarmboardPlugin.rules, "runtime-seal": runtimeSealRule } } },
    rules: {
      "swarmboard/layers": "error",
      "swarmboard/runtime-seal": "error",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": [
        "error",
        { fixStyle: "inline-type-imports", disallowTypeAnnotations: false },
      ],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-syntax": [
        "error",
        { selector: "ExportDefaultDeclaration", message: "Use named exports (STYLE.md)." },
      ],
    },
  },
);
