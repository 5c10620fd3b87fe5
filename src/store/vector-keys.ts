/**
 * The integer key a stored vector goes by, from its chunk's row id and its
 * window (docs/decisions/0032-max-over-windows.md). A chunk's first window is
 * keyed by the chunk's row id itself, so every collection written before
 * windows existed (one vector per chunk) reads as it is; window w ≥ 1 is keyed
 * above {@link WINDOW_KEY_BASE}: `BASE + rowid × 64 + w`. Every key stays a safe
 * JavaScript integer, an SQLite rowid, and a usearch / vectors-file key.
 */
import { GroundkitError } from "../core/errors.js";
import { MAX_CHUNK_WINDOWS } from "./vectors.js";

/** Keys of windows after the first start here (2^52: chunk row ids stay far below it). */
export const WINDOW_KEY_BASE = 2 ** 52;

/** The largest chunk row id whose windows have keys (so every key stays below 2^53). */
export const MAX_WINDOWED_ROWID = WINDOW_KEY_BASE / MAX_CHUNK_WINDOWS - 1;

/**
 * The key of window `window` of chunk `rowid`.
 *
 * @throws GroundkitError INTERNAL for a row id or window out of range
 */
export function windowKey(rowid: number, window: number): number {
  if (window === 0 && Number.isSafeInteger(rowid) && rowid < WINDOW_KEY_BASE) return rowid;
  if (!Number.isInteger(window) || window < 0 || window >= MAX_CHUNK_WINDOWS || !Number.isInteger(rowid) || rowid < 0 || rowid > MAX_WINDOWED_ROWID) {
    throw new GroundkitError("INTERNAL", `No vector key for window ${window} of chunk row ${rowid}.`);
  }
  return WINDOW_KEY_BASE + rowid * MAX_CHUNK_WINDOWS + window;
}

/** The chunk row id a vector key belongs to. */
export function chunkOfKey(key: number): number {
  return key < WINDOW_KEY_BASE ? key : Math.floor((key - WINDOW_KEY_BASE) / MAX_CHUNK_WINDOWS);
}

/** The keys of windows 1 and up of chunk `rowid`: [first, last], inclusive. */
export function extraWindowKeyRange(rowid: number): [number, number] {
  return [windowKey(rowid, 1), windowKey(rowid, MAX_CHUNK_WINDOWS - 1)];
}

/** The same mapping as {@link chunkOfKey} in SQL over an integer expression (SQLite and PostgreSQL integer division). */
export function chunkOfKeySql(key: string): string {
  return `(CASE WHEN ${key} >= ${WINDOW_KEY_BASE} THEN (${key} - ${WINDOW_KEY_BASE}) / ${MAX_CHUNK_WINDOWS} ELSE ${key} END)`;
}

/** Ranked vector hits → ranked chunk hits (row id = the chunk's): each chunk once, at its best window's place; up to `k`. */
export function bestWindowPerChunk<H extends { rowid: number }>(hits: readonly H[], k: number): H[] {
  const seen = new Set<number>();
  const out: H[] = [];
  for (const h of hits) {
    const chunk = chunkOfKey(h.rowid);
    if (seen.has(chunk)) continue;
    seen.add(chunk);
    out.push({ ...h, rowid: chunk });
    if (out.length === k) break;
  }
  return out;
}

/**
 * The `k` nearest chunks from a search over vector keys: asks `search` for more vectors than chunks (a chunk
 * may fill several places with its windows) and widens until `k` distinct chunks come back, the vectors run
 * out, or `maxK` vectors were asked for.
 */
export function nearestChunks<H extends { rowid: number }>(k: number, maxK: number, search: (vectors: number) => H[]): H[] {
  for (let asked = Math.min(maxK, 2 * k); ; asked = Math.min(maxK, asked * 4)) {
    const hits = search(asked);
    const chunks = bestWindowPerChunk(hits, k);
    if (chunks.length >= k || hits.length < asked || asked >= maxK) return chunks;
  }
}
