/**
 * A process's copy of the chunk rows (with their document's columns) that
 * search hits were read from, so a search whose hits are all known skips
 * reading them again. Entries are keyed on a scope string and the chunk's row
 * id; the backend chooses the scope so that a row cached under it can never
 * stand for something else:
 *
 * - PostgreSQL (lexical-rows.ts): the `chunks` table's OID and the count of
 *   in-place moves. Rows never change in place otherwise (a replacement
 *   inserts new ids from a sequence that never goes back), so entries outlive
 *   writes.
 * - SQLite (sqlite/sqlite-engine.ts): every commit to the file by any
 *   connection changes the scope (row ids are reused there), and the cache is
 *   emptied when it does.
 *
 * Least recently used rows go first once the texts pass the byte budget.
 */
import type { JoinedRow } from "./rows.js";

/** Default budget: about 10,000 chunks of the default size. */
const DEFAULT_BYTES = 16 * 1024 * 1024;

/** What an entry costs beyond its strings (object, map slot). */
const ENTRY_OVERHEAD = 200;

export class ChunkRowCache {
  private readonly rows = new Map<string, { row: JoinedRow; bytes: number }>();
  private bytes = 0;
  /** Lookups answered and missed, for the benchmark's report. */
  hits = 0;
  misses = 0;

  constructor(private readonly budget = DEFAULT_BYTES) {}

  /** The row of chunk `rowid` in `scope`, if held (and now the most recent). */
  get(scope: string, rowid: number): JoinedRow | undefined {
    const key = `${scope}:${rowid}`;
    const entry = this.rows.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.rows.delete(key);
    this.rows.set(key, entry);
    return entry.row;
  }

  /** Forget every row (the SQLite scope changed: nothing held is known to be current). */
  clear(): void {
    this.rows.clear();
    this.bytes = 0;
  }

  put(scope: string, rowid: number, row: JoinedRow): void {
    if (this.budget <= 0) return;
    const key = `${scope}:${rowid}`;
    const bytes = 2 * (row.text.length + row.chunk_metadata.length + row.metadata.length + row.source.length) + ENTRY_OVERHEAD;
    const old = this.rows.get(key);
    if (old) this.bytes -= old.bytes;
    this.rows.delete(key);
    this.rows.set(key, { row, bytes });
    this.bytes += bytes;
    while (this.bytes > this.budget) {
      const [oldest, entry] = this.rows.entries().next().value!;
      this.rows.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }
}
