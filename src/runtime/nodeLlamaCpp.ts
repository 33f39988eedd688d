// node-llama-cpp is ESM-only and this project compiles to CommonJS (tsconfig `module: node16`), so the
// runtime loads it with a real dynamic import, once, here.
export type NodeLlamaCpp = typeof import("node-llama-cpp", { with: { "resolution-mode": "import" } });

let loading: Promise<NodeLlamaCpp> | undefined;

export function loadNodeLlamaCpp(): Promise<NodeLlamaCpp> {
  loading ??= import("node-llama-cpp");
  return loading;
}
