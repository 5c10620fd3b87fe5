/**
 * Where a worker thread's code is: the compiled JS beside the module that
 * starts it, or, under the test runner, its TypeScript source with the
 * repository's development-only transpiling hooks (Node 20 cannot load .ts).
 * Never the latter for dist/.
 */
export function workerEntry(starter: string, baseName: string): { url: URL; execArgv?: string[] } {
  if (!starter.endsWith(".ts")) return { url: new URL(`./${baseName}.js`, starter) };
  const hooks = new URL("../../scripts/ts-source-register.mjs", import.meta.url).href;
  return { url: new URL(`./${baseName}.ts`, starter), execArgv: [...process.execArgv, "--import", hooks] };
}
