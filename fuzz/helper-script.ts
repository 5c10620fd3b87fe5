/**
 * Locating the JavaScript of helper scripts that run in another process (the
 * unprivileged verification worker, the torture hooks) and of the product
 * modules they load.
 *
 * Built by `npm run tools:build`, this file runs as .tools-build/fuzz/*.js and
 * the helpers sit next to it, with the product compiled under
 * .tools-build/src/. Under vitest it runs from TypeScript source, so the helper
 * is transpiled on the fly with the TypeScript compiler (a dev dependency) into
 * the scratch directory, and the product is loaded from dist/ (built by
 * `npm test` before the tests run).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const compiled = import.meta.url.endsWith(".js");

/** Repository root. */
export function repoRoot(): string {
  return compiled ? resolve(here, "../..") : resolve(here, "..");
}

/** Directory holding the product's compiled modules (`cite/verify.js`, …). */
export function productJsRoot(): string {
  const dir = compiled ? resolve(here, "../src") : join(repoRoot(), "dist");
  if (!existsSync(join(dir, "cite", "verify.js"))) {
    throw new Error(`the compiled product is missing under ${dir}; run \`npm run build\` (or \`npm run tools:build\`) first.`);
  }
  return dir;
}

/** The built CLI the torture and the soak drive (`npm run build` makes it). */
export function cliPath(): string {
  return join(repoRoot(), "dist", "cli", "main.js");
}

/** A runnable `.js`/`.mjs` path for helper `name` (a file in fuzz/), transpiling into `scratch` when needed. */
export async function helperScript(name: string, scratch: string): Promise<string> {
  if (compiled) return join(here, `${name}.js`);
  const ts = (await import("typescript")).default;
  const source = readFileSync(join(here, `${name}.ts`), "utf8");
  const out = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    fileName: `${name}.ts`,
  });
  const file = join(scratch, `${name}.mjs`);
  writeFileSync(file, out.outputText, { mode: 0o644 });
  return file;
}
