/**
 * This process's copy of chunk rows (with their document's columns) that BM25
 * hits were read from, so a search whose hits are all known needs no second
 * round trip (lexical-rows.ts). Safe because such a row never changes: a
 * replacement deletes a document's rows and inserts new ones under new ids
 * from a sequence that never goes back (a rollback included), and nothing
 * updates chunks in place; a document's source changes in place only by a
 * move, which counts itself (meta `moves`). Entries are keyed on the `chunks`
 * table's OID and that count as well (the scope), so a collection dropped and
 * made again under the same name (its ids start over) never finds the old
 * rows, and a moved document's rows are read again. Least recently used
 * rows go first once the texts pass the byte budget.
 */
import type { JoinedRow } from "../rows.js";

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

  /** The row of chunk `rowid` in `scope` (the `chunks` table's OID and the move count), if held (and now the most recent). */
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
