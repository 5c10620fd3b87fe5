/**
 * Query validation shared by every surface: a clear error for an empty or
 * oversized query and an out-of-range top_k, never a crash.
 */
import { GroundkitError } from "../core/errors.js";

export const MAX_QUERY_CHARS = 4096;
export const MAX_TOP_K = 100;
export const DEFAULT_TOP_K = 10;

/** Validate a query string; returns it unchanged. */
export function checkQuery(query: string): string {
  if (query.trim().length === 0) throw new GroundkitError("QUERY_EMPTY", "The query is empty.");
  if (query.length > MAX_QUERY_CHARS) {
    throw new GroundkitError("QUERY_TOO_LONG", `The query is ${query.length} characters; the limit is ${MAX_QUERY_CHARS}.`);
  }
  return query;
}

/** Validate top_k: an integer in 1..100. */
export function checkTopK(topK: number | undefined): number {
  const k = topK ?? DEFAULT_TOP_K;
  if (!Number.isInteger(k) || k < 1 || k > MAX_TOP_K) {
    throw new GroundkitError("INVALID_ARGUMENT", `top_k must be an integer from 1 to ${MAX_TOP_K}; got ${String(topK)}.`);
  }
  return k;
}
