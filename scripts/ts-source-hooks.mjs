// Module hooks for scripts/ts-source-register.mjs: `./x.js` imported from a .ts file resolves to
// `./x.ts` when only that exists (the TypeScript convention for ESM), and .ts files are
// transpiled with the project's own TypeScript (types dropped, nothing else changed). Outputs
// are cached by content under the temp dir: loading TypeScript itself takes a second, and tests
// start a fresh worker after every refusal.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const CACHE_DIR = join(tmpdir(), "groundkit-ts-source-cache");
let typescript;

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (err) {
    const relative = specifier.startsWith("./") || specifier.startsWith("../");
    if (err?.code !== "ERR_MODULE_NOT_FOUND" || !relative || !specifier.endsWith(".js") || !context.parentURL?.endsWith(".ts")) {
      throw err;
    }
    return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
  }
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return nextLoad(url, context);
  const fileName = fileURLToPath(url);
  const source = readFileSync(fileName, "utf8");
  const cached = join(CACHE_DIR, `${createHash("sha256").update(fileName).update("\0").update(source).digest("hex")}.js`);
  try {
    return { format: "module", source: readFileSync(cached, "utf8"), shortCircuit: true };
  } catch {
    // not cached yet
  }
  typescript ??= (await import("typescript")).default;
  const { outputText } = typescript.transpileModule(source, {
    fileName,
    compilerOptions: { module: typescript.ModuleKind.ESNext, target: typescript.ScriptTarget.ES2022, inlineSourceMap: true },
  });
  mkdirSync(CACHE_DIR, { recursive: true });
  const temp = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(temp, outputText);
  renameSync(temp, cached);
  return { format: "module", source: outputText, shortCircuit: true };
}
