/**
 * Child-process entry for one benchmark task:
 * `node .tools-build/bench/child.js <task> <args.json> <result.json>`.
 * Writes `{ok, result}` or `{ok: false, error}` to the result file.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { TASKS, type TaskName } from "./tasks.js";

const [task, argsFile, outFile] = process.argv.slice(2);
if (!task || !argsFile || !outFile || !(task in TASKS)) {
  console.error(`usage: child.js <${Object.keys(TASKS).join("|")}> <args.json> <result.json>`);
  process.exit(2);
}
try {
  const args = JSON.parse(readFileSync(argsFile, "utf8")) as unknown;
  const result = await TASKS[task as TaskName](args);
  writeFileSync(outFile, JSON.stringify({ ok: true, result }));
  // Providers' worker threads or sockets must not keep a finished task alive.
  process.exit(0);
} catch (err) {
  const e = err as Error & { code?: string };
  writeFileSync(outFile, JSON.stringify({ ok: false, error: `${e.code ? `[${e.code}] ` : ""}${e.stack ?? e.message}` }));
  process.exit(0);
}
