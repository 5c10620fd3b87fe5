/**
 * Reads the identity (`<name>/<version>`) and location of an installed npm
 * package from its own package.json at run time, so an upgrade changes the
 * identity automatically and is never a hand-maintained constant.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

/** An installed npm package as this module's resolution sees it. */
export interface InstalledPackage {
  /** The package name as written in its package.json. */
  readonly name: string;
  /** The installed version from its package.json. */
  readonly version: string;
  /** Absolute path of the package's directory (no trailing separator). */
  readonly dir: string;
  /** `"<name>/<version>"`, the extractor identity format. */
  readonly identity: string;
}

// Resolve from this file's location: the same node_modules lookup a dynamic
// `import(name)` from src/extract/ performs, so the identity describes the copy
// that actually runs.
const require = createRequire(import.meta.url);

/**
 * Locate `name` in node_modules and read its package.json.
 *
 * Walks Node's own lookup paths instead of `require.resolve("<name>/package.json")`
 * because packages with an `exports` map (htmlparser2, for one) refuse that subpath.
 *
 * @example
 *   installedPackage("pdfjs-dist").identity // "pdfjs-dist/5.6.205"
 * @throws Error when the package is not installed or its package.json is unusable.
 */
export function installedPackage(name: string): InstalledPackage {
  const paths = require.resolve.paths(name) ?? [];
  for (const base of paths) {
    const dir = join(base, name);
    const manifestPath = join(dir, "package.json");
    if (!existsSync(manifestPath)) continue;
    let manifest: unknown;
    try {
      manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    } catch (err) {
      throw new Error(`cannot read ${manifestPath}: ${(err as Error).message}`, { cause: err });
    }
    const { name: declared, version } = (manifest ?? {}) as { name?: unknown; version?: unknown };
    if (declared !== name) {
      throw new Error(`${manifestPath} declares name ${JSON.stringify(declared)}, expected ${JSON.stringify(name)}`);
    }
    if (typeof version !== "string" || version.length === 0) {
      throw new Error(`${manifestPath} has no version`);
    }
    return { name, version, dir, identity: `${name}/${version}` };
  }
  // The code Node gives a failed `require`, so callers can tell "not installed" from "broken".
  throw Object.assign(new Error(`package ${JSON.stringify(name)} is not installed`), { code: "MODULE_NOT_FOUND" });
}

/** `"<name>/<installed version>"` of `name`; see {@link installedPackage}. */
export function packageIdentity(name: string): string {
  return installedPackage(name).identity;
}
