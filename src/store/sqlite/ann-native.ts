/**
 * Loading the native HNSW library (usearch, docs/decisions/0009-ann-vector-index.md)
 * lazily and defensively: a collection must stay usable when the prebuilt binary
 * cannot load (an unsupported platform, a stripped install). Then dense search
 * is exact (sqlite-vec), and `grk status` says why.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The part of usearch's `Index` groundkit uses. Keys are chunk rowids. */
export interface NativeAnnIndex {
  add(keys: BigUint64Array, vectors: Float32Array, threads: number): void;
  search(vector: Float32Array, k: number, threads: number): { keys: BigUint64Array; distances: Float32Array };
  size(): number;
  save(path: string): void;
  load(path: string): void;
  view(path: string): void;
}

/** The index settings: inner product over unit vectors ranks like cosine. */
export interface AnnSettings {
  dimensions: number;
  connectivity: number;
  expansionAdd: number;
  expansionSearch: number;
  quantization: "f32" | "f16" | "i8";
}

export interface AnnLibrary {
  /** `usearch@<version>`, recorded in the index file's header. */
  name: string;
  create(settings: AnnSettings): NativeAnnIndex;
}

interface UsearchModule {
  Index: new (config: {
    dimensions: number;
    metric: string;
    quantization: string;
    connectivity: number;
    expansion_add: number;
    expansion_search: number;
    multi: boolean;
  }) => NativeAnnIndex;
}

let cached: { library: AnnLibrary } | { error: string } | undefined;

/**
 * The ANN library, or the reason it cannot load. `moduleName` exists so a test
 * can point it at a module that is not installed (the real failure path).
 */
export function loadAnnLibrary(moduleName = "usearch"): { library: AnnLibrary } | { error: string } {
  if (moduleName === "usearch" && cached !== undefined) return cached;
  let result: { library: AnnLibrary } | { error: string };
  try {
    const require = createRequire(import.meta.url);
    const mod = require(moduleName) as UsearchModule;
    const version = packageVersion(require.resolve(moduleName), moduleName);
    result = {
      library: {
        name: `${moduleName}@${version}`,
        create: (s) =>
          new mod.Index({
            dimensions: s.dimensions,
            metric: "ip",
            quantization: s.quantization,
            connectivity: s.connectivity,
            expansion_add: s.expansionAdd,
            expansion_search: s.expansionSearch,
            // Several nodes per key: a changed vector is appended, never put in a removed node's slot (ann-index.ts).
            multi: true,
          }),
      },
    };
  } catch (err) {
    result = { error: `${moduleName} could not load: ${(err as Error).message.split("\n")[0]}` };
  }
  if (moduleName === "usearch") cached = result;
  return result;
}

/** The version in the package.json above a module's entry file (its `exports` do not expose package.json). */
function packageVersion(entry: string, name: string): string {
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; version?: string };
    if (pkg.name === name && typeof pkg.version === "string") return pkg.version;
  }
  return "unknown";
}
