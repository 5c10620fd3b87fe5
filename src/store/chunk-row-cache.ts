/**
 * A process's copy of the chunk rows (with their document's columns) that
 * search hits were read from, so a search whose hits are all known skips
 * reading them again. Entries are keyed on a scope string and the chunk's row
 * id; the backend chooses the scope so that a row cached under it can never
 * stand for something else:
 *
 * - PostgreSQL (lexical-rows.ts): the `chunks` table's OID (a collection
 *   dropped and made again under its name has a new one) and the count of
 *   in-place moves. Rows never change in place otherwise (a replacement
 *   inserts new ids from a sequence that never goes back), so entries outlive
 *   writes.
 * - SQLite reads its hits' rows every time (ADR 0039's amendment: there,
 *   holding them cost more in young-generation collections than reading them
 *   from the page cache again).
 *
 * Rows not read within about the last half of the byte budget go first
 * (two generations, see the class).
 */
import type { JoinedRow } from "./rows.js";

/** Default budget: about 10,000 chunks of the default size. */
const DEFAULT_BYTES = 16 * 1024 * 1024;

/** What an entry costs beyond its strings (object, map slot). */
const ENTRY_OVERHEAD = 200;

interface Entry {
  row: JoinedRow;
  bytes: number;
}

/**
 * Two generations instead of one map in exact recency order: rows go into
 * `recent`; when it holds half the budget it becomes `older` (the previous
 * `older` is dropped whole), and a row found in `older` moves back into
 * `recent`. So a row read within the last half-budget of rows stays, and
 * nothing is ever deleted one by one: a map used as an exact LRU (delete on
 * every hit, evict from the front) leaves holes its iterator walks over, which
 * cost ~6 µs per insert once the cache was full.
 */
export class ChunkRowCache {
  private recent = new Map<string, Entry>();
  private recentBytes = 0;
  private older = new Map<string, Entry>();
  /** Lookups answered and missed, for the benchmark's report. */
  hits = 0;
  misses = 0;

  constructor(private readonly budget = DEFAULT_BYTES) {}

  /** The row of chunk `rowid` in `scope`, if held. */
  get(scope: string, rowid: number): JoinedRow | undefined {
    const key = `${scope}:${rowid}`;
    let entry = this.recent.get(key);
    if (entry === undefined) {
      entry = this.older.get(key);
      if (entry === undefined) {
        this.misses++;
        return undefined;
      }
      this.keep(key, entry);
    }
    this.hits++;
    return entry.row;
  }

  /** Forget every row (the SQLite scope changed: nothing held is known to be current). */
  clear(): void {
    this.recent = new Map();
    this.older = new Map();
    this.recentBytes = 0;
  }

  put(scope: string, rowid: number, row: JoinedRow): void {
    if (this.budget <= 0) return;
    const bytes = 2 * (row.text.length + row.chunk_metadata.length + row.metadata.length + row.source.length) + ENTRY_OVERHEAD;
    this.keep(`${scope}:${rowid}`, { row, bytes });
  }

  /** Rows held, both generations (a row in both counts once). */
  get size(): number {
    let n = this.recent.size;
    for (const key of this.older.keys()) if (!this.recent.has(key)) n++;
    return n;
  }

  private keep(key: string, entry: Entry): void {
    const old = this.recent.get(key);
    if (old) this.recentBytes -= old.bytes;
    this.recent.set(key, entry);
    this.recentBytes += entry.bytes;
    if (this.recentBytes * 2 > this.budget) {
      this.older = this.recent;
      this.recent = new Map();
      this.recentBytes = 0;
    }
  }
}
