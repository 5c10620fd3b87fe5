// Module hooks for scripts/ts-source-register.mjs: `./x.js` imported from a .ts file resolves to
// `./x.ts` when only that exists (the TypeScript convention for ESM), and .ts files are
// transpiled with the project's own TypeScript (types dropped, nothing else changed).
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

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
  typescript ??= (await import("typescript")).default;
  const fileName = fileURLToPath(url);
  const { outputText } = typescript.transpileModule(await readFile(fileName, "utf8"), {
    fileName,
    compilerOptions: {
      module: typescript.ModuleKind.ESNext,
      target: typescript.ScriptTarget.ES2022,
      inlineSourceMap: true,
    },
  });
  return { format: "module", source: outputText, shortCircuit: true };
}
