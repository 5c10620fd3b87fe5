/**
 * SQL functions groundkit registers on each connection, so filters run inside
 * the query.
 */
import picomatch from "picomatch";
import type { Db } from "./db.js";

const matchers = new Map<string, (s: string) => boolean>();

/** `grk_glob(pattern, value)`: 1 when the value matches the picomatch glob. */
function glob(pattern: unknown, value: unknown): number {
  if (typeof pattern !== "string" || typeof value !== "string") return 0;
  let m = matchers.get(pattern);
  if (!m) {
    m = picomatch(pattern, { dot: true });
    if (matchers.size > 256) matchers.clear();
    matchers.set(pattern, m);
  }
  return m(value) ? 1 : 0;
}

export function registerFunctions(db: Db): void {
  db.function("grk_glob", { deterministic: true }, glob);
}
