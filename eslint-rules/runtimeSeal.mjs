// The runtime's seal, as a lint rule (issue 25, "a sealed engine port"). Inside src/runtime, the two engines stay
// apart: src/runtime/local/** (node-llama-cpp in this process) and src/runtime/remote/** (a serving engine over
// HTTP) never import each other, and the neutral files beside them (the port, the shared model pieces) import
// neither; only the factory (engines.ts) knows both. Outside src/runtime, code reaches the runtime only through its
// public surface: the port (port/**), the factory, the owner (runtimeOwner.ts) and the model services
// (modelServices.ts). Kept apart from layers.mjs so that each rule reads on its own.
import path from "node:path";
import { allowedLayers } from "./layers.mjs";

/** The files of src/runtime that code outside it may import (paths inside src/runtime, without extension). */
export const runtimeSurface = ["port/**", "engines", "runtimeOwner", "modelServices"];

/** The engine folders of src/runtime, which never import each other. */
const engines = ["local", "remote"];

/** Neutral runtime files that may import an engine folder: the factory opens either engine. */
const engineOpeners = new Set(["engines"]);

/** Where `file` sits: outside src (undefined), in src outside the runtime, or in the runtime at a path. */
function placeOf(file, root) {
  const rel = path.relative(root, file).split(path.sep);
  if (rel[0] !== "src") return undefined;
  if (rel[1] !== "runtime") return { runtime: false, layer: rel[1] };
  const inner = rel
    .slice(2)
    .join("/")
    .replace(/\.(ts|mts|js|mjs)$/, "");
  const engine = engines.includes(rel[2]) && rel.length > 3 ? rel[2] : undefined;
  return { runtime: true, inner, engine };
}

function onSurface(inner) {
  return runtimeSurface.some((entry) =>
    entry.endsWith("/**") ? inner.startsWith(entry.slice(0, -2)) : inner === entry,
  );
}

export const runtimeSealRule = {
  meta: {
    type: "problem",
    docs: { description: "keeps the engines apart and the runtime reached only through its port" },
    schema: [],
    messages: {
      crossEngine:
        "src/runtime/{{from}} may not import src/runtime/{{to}}: the {{fromEngine}} engine shares only the port " +
        "and the neutral runtime files with the {{toEngine}} one.",
      neutralImportsEngine:
        "src/runtime/{{from}} is neutral: it may not import the {{toEngine}} engine's src/runtime/{{to}} " +
        "(only engines.ts opens an engine).",
      pastThePort:
        "src/runtime/{{to}} is inside the runtime: outside src/runtime import only its port (src/runtime/port/), " +
        "engines.ts, runtimeOwner.ts or modelServices.ts.",
    },
  },
  create(context) {
    const file = context.filename;
    const root = context.cwd;
    const from = placeOf(file, root);
    if (from === undefined) return {}; // tests, bench and scripts may open the runtime's internals
    function check(node, specifier) {
      if (typeof specifier !== "string" || !specifier.startsWith(".")) return;
      const to = placeOf(path.resolve(path.dirname(file), specifier), root);
      if (to === undefined || !to.runtime) return;
      if (!from.runtime) {
        // A layer that may not import the runtime at all hears it from the layer rule, once.
        const reachesRuntime = allowedLayers[from.layer]?.includes("runtime") === true;
        if (reachesRuntime && !onSurface(to.inner))
          context.report({ node, messageId: "pastThePort", data: { to: to.inner } });
        return;
      }
      if (to.engine === undefined || to.engine === from.engine) return;
      const data = { from: from.inner, to: to.inner, fromEngine: from.engine, toEngine: to.engine };
      if (from.engine !== undefined) context.report({ node, messageId: "crossEngine", data });
      else if (!engineOpeners.has(from.inner)) context.report({ node, messageId: "neutralImportsEngine", data });
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value),
    };
  },
};
