// The layer rule of ../shared/DESIGN.md ("Layers and who may import whom"), as a lint rule.
// Each import is resolved against the importing file, so `../runtime/x` and `src/runtime/x` are the same layer.
import path from "node:path";

/** Which of our layers each layer may import. */
export const allowedLayers = {
  protocol: [],
  core: ["protocol"],
  runtime: ["protocol", "core"],
  workspace: ["protocol", "core"],
  worker: ["protocol", "core", "runtime", "workspace"],
  cli: ["protocol", "core", "worker"],
  host: ["protocol", "core"],
  webview: ["protocol"],
};

/**
 * The worker's floors (its sub-folders), lowest first: one agent's loop, one swarm's run, then the standing swarm and
 * the eval runner side by side. Each floor may import the floors listed for it; the process files at src/worker
 * (main, transport, services, records, launcher) sit on top and may import every floor.
 */
export const workerFloors = {
  agent: [],
  swarm: ["agent"],
  standing: ["agent", "swarm"],
  eval: ["agent", "swarm"],
};

/**
 * Packages that only one layer may import: the editor's API in the host, the model runtime in the runtime, git in the
 * workspace (every other layer reaches git through the workspace's contained tools).
 */
const packageOwners = { vscode: "host", "node-llama-cpp": "runtime", "simple-git": "workspace" };

/** Layers that must stay free of I/O (a browser, or pure logic). */
const noNodeIo = new Set(["protocol", "core", "webview"]);
const nodeIoModules = new Set([
  "fs",
  "fs/promises",
  "child_process",
  "net",
  "http",
  "https",
  "os",
  "worker_threads",
  "dgram",
  "cluster",
]);

function layerOf(file, root) {
  const rel = path.relative(root, file).split(path.sep);
  if (rel[0] === "src" && rel[1] in allowedLayers) return rel[1];
  if (rel[0] === "webview") return "webview";
  return undefined;
}

/** The worker floor of a file under src/worker ("process" for the files at its top), else undefined. */
function workerFloorOf(file, root) {
  const rel = path.relative(root, file).split(path.sep);
  if (rel[0] !== "src" || rel[1] !== "worker") return undefined;
  return rel.length > 3 && rel[2] in workerFloors ? rel[2] : "process";
}

function packageName(specifier) {
  if (specifier.startsWith(".") || path.isAbsolute(specifier)) return undefined;
  const parts = specifier.replace(/^node:/, "").split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

export const layersRule = {
  meta: {
    type: "problem",
    docs: { description: "keeps each layer importing only what DESIGN.md allows" },
    schema: [],
    messages: {
      layer: "{{from}} may not import {{to}} (src/{{from}} may import: {{allowed}}).",
      package: "`{{pkg}}` may be imported only under {{owner}}.",
      io: "{{from}} must stay free of I/O: `{{pkg}}` is not allowed here.",
      floor:
        "worker/{{from}} may not import worker/{{to}}: the worker's floors import downwards only " +
        "(worker/{{from}} may import: {{allowed}}).",
    },
  },
  create(context) {
    const file = context.filename;
    const root = context.cwd;
    const from = layerOf(file, root);
    if (from === undefined) {
      // Outside the layered tree (tests, bench, scripts) only the package owners apply to src-like code.
      return {};
    }
    const fromFloor = workerFloorOf(file, root);
    function checkFloor(node, resolved) {
      const toFloor = workerFloorOf(resolved, root);
      if (fromFloor === "process" || toFloor === fromFloor) return;
      if (toFloor === "process" || !workerFloors[fromFloor].includes(toFloor)) {
        const allowed = workerFloors[fromFloor].map((f) => `worker/${f}`).join(", ") || "no other floor";
        context.report({ node, messageId: "floor", data: { from: fromFloor, to: toFloor, allowed } });
      }
    }
    function check(node, specifier) {
      if (typeof specifier !== "string") return;
      const pkg = packageName(specifier);
      if (pkg !== undefined) {
        const owner = packageOwners[pkg];
        if (owner !== undefined && owner !== from) {
          context.report({
            node,
            messageId: "package",
            data: { pkg, owner: owner === "webview" ? "webview/" : `src/${owner}` },
          });
        }
        const bare = specifier.replace(/^node:/, "");
        if (noNodeIo.has(from) && nodeIoModules.has(bare)) {
          context.report({ node, messageId: "io", data: { from, pkg: specifier } });
        }
        return;
      }
      const resolved = path.resolve(path.dirname(file), specifier);
      const target = layerOf(resolved, root);
      if (target === "worker" && from === "worker") checkFloor(node, resolved);
      if (target === undefined || target === from) return;
      if (!allowedLayers[from].includes(target)) {
        context.report({
          node,
          messageId: "layer",
          data: { from, to: target, allowed: allowedLayers[from].join(", ") || "nothing of ours" },
        });
      }
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value),
      TSImportEqualsDeclaration: (node) =>
        node.moduleReference.type === "TSExternalModuleReference" && check(node, node.moduleReference.expression.value),
      CallExpression: (node) => {
        if (
          node.callee.type === "Identifier" &&
          node.callee.name === "require" &&
          node.arguments[0]?.type === "Literal"
        ) {
          check(node, node.arguments[0].value);
        }
      },
    };
  },
};

export const swarmboardPlugin = { rules: { layers: layersRule } };
