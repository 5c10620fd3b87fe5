/**
 * The layer rule (docs/architecture.md): a module of `src/` may import only
 * from its own folder and the floors below it. A wrong arrow fails `npm run lint`.
 *
 * A layer is the first folder under `src/` (`store`, `retrieve`, `collection`, …);
 * the file directly in `src/` (index.ts, the package's exports) is `library`.
 * Tests, bench and fuzz sit outside and may import anything.
 */
import { dirname, relative, resolve, sep } from "node:path";

/** What each layer may import, besides itself. Read it bottom-up: every arrow points down. */
export const ALLOWED = {
  core: [],
  analysis: ["core"],
  obs: ["core"],
  source: ["core"],
  net: ["core", "obs"],
  extract: ["core", "obs"],
  store: ["core", "analysis", "obs"],
  embed: ["core", "obs", "net", "store"],
  cite: ["core", "obs", "source", "net", "extract", "store"],
  ingest: ["core", "analysis", "obs", "source", "net", "extract", "store", "embed"],
  retrieve: ["core", "analysis", "obs", "net", "store", "embed"],
  answer: ["core", "analysis", "obs", "net", "store", "embed", "retrieve", "cite"],
  collection: ["core", "analysis", "obs", "source", "net", "extract", "store", "embed", "cite", "ingest", "retrieve", "answer"],
  watch: ["core", "obs", "ingest"],
  eval: ["core", "analysis", "obs", "source", "net", "extract", "store", "embed", "cite", "ingest", "retrieve", "answer", "collection"],
  service: ["core", "obs", "net", "ingest", "retrieve", "cite", "answer", "collection", "watch"],
  cli: ["core", "analysis", "obs", "source", "net", "extract", "store", "embed", "cite", "ingest", "retrieve", "answer", "collection", "eval", "service", "watch"],
  library: ["core", "analysis", "obs", "source", "net", "extract", "store", "embed", "cite", "ingest", "retrieve", "answer", "collection"],
};

const SRC = resolve(import.meta.dirname, "../src");

/** Folders private to their layer: only files of that layer import them (nothing above store/ names a backend). */
export const PRIVATE = [
  { layer: "store", dir: resolve(SRC, "store/sqlite") },
  { layer: "store", dir: resolve(SRC, "store/postgres") },
];

/** The private folder a path lies in, if any. */
function privateFolderOf(path) {
  return PRIVATE.find((p) => path === p.dir || path.startsWith(p.dir + sep));
}

/** The layer of a file under src/, or undefined outside it. */
export function layerOf(file) {
  const rel = relative(SRC, file);
  if (rel.startsWith("..") || rel === "") return undefined;
  const parts = rel.split(sep);
  return parts.length === 1 ? "library" : parts[0];
}

export const layersRule = {
  meta: {
    type: "problem",
    docs: { description: "imports in src/ point down the layers of docs/architecture.md" },
    schema: [],
    messages: {
      upward: "{{from}}/ may not import from {{to}}/ (allowed: {{allowed}}); see docs/architecture.md for where this belongs.",
      unknown: "{{from}} is not a known layer: add it to eslint-rules/layers.js and docs/architecture.md.",
      private: "{{from}}/ may not import from {{dir}}/, which is private to {{layer}}/: ask {{layer}}/'s own interface (e.g. store/backends.ts) instead.",
    },
  },
  create(context) {
    const file = context.filename;
    const from = layerOf(file);
    if (from === undefined) return {};
    const check = (node, spec) => {
      if (typeof spec !== "string" || !spec.startsWith(".")) return;
      const target = resolve(dirname(file), spec);
      const to = layerOf(target);
      const hidden = privateFolderOf(target);
      if (hidden && from !== hidden.layer) {
        context.report({ node, messageId: "private", data: { from, dir: relative(SRC, hidden.dir), layer: hidden.layer } });
        return;
      }
      if (to === undefined || to === from) return;
      const allowed = ALLOWED[from];
      if (allowed === undefined) context.report({ node, messageId: "unknown", data: { from } });
      else if (!allowed.includes(to)) context.report({ node, messageId: "upward", data: { from, to, allowed: allowed.join(", ") || "none" } });
    };
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node.source, node.source.value),
    };
  },
};

export default { rules: { layers: layersRule } };
