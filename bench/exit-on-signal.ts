/**
 * What an interrupted benchmark leaves behind. Ctrl-C (or a SIGTERM) ends it
 * through `process.exit`, so its exit handlers run: the PostgreSQL servers it
 * started are stopped and their data deleted (test/support/postgres-server.ts)
 * instead of running on, detached, and its scratch folders are removed.
 */
import { rmSync } from "node:fs";
import { atExit } from "../test/support/at-exit.js";

export function exitOnSignal(): void {
  process.once("SIGINT", () => process.exit(130));
  process.once("SIGTERM", () => process.exit(143));
}

/** Remove `dir` when the process exits, however it ends (a `finally` does not run on `process.exit`). */
export function removeAtExit(dir: string): void {
  atExit(() => rmSync(dir, { recursive: true, force: true }));
}
