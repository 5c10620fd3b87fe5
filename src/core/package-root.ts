/**
 * Where groundkit itself is installed: the folder holding its package.json
 * (the clone, or `<prefix>/node_modules/groundkit` after `npm install`).
 * Files that ship in the package (the golden corpus) and the pinned versions of
 * its optional dependencies are read from there, never from the working directory.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The package's manifest fields this code reads. */
export interface PackageManifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
}

// This file is src/core/package-root.ts or dist/core/package-root.js: two levels below the root either way.
const ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/[\\/]$/, "");

/**
 * The absolute path of groundkit's package folder (no trailing separator).
 *
 * @example
 *   join(packageRoot(), "evals", "judgments.jsonl")
 */
export function packageRoot(): string {
  return ROOT;
}

let manifest: PackageManifest | undefined;

/** groundkit's own package.json, read once. */
export function packageManifest(): PackageManifest {
  manifest ??= JSON.parse(readFileSync(`${ROOT}/package.json`, "utf8")) as PackageManifest;
  return manifest;
}
