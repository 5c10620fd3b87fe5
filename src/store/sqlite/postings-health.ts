/**
 * Whether the BM25 postings (postings.ts) index exactly the collection's
 * chunks, and rebuilding them from the chunk rows when they do not. The
 * postings are written in the same transaction as their chunks, so a
 * difference means damage or a write that bypassed the store.
 */
import { chunkTokens } from "../../analysis/chunk-tokens.js";
import { decodeDocTable } from "./postings-codec.js";
import { key, PostingsTables, readState, type SegmentRow } from "./postings-format.js";
import { PostingsIndex } from "./postings.js";
import type { Db } from "./db.js";

/** How the postings differ from the chunk rows. */
export interface PostingsDiff {
  /** Chunks the postings do not index. */
  missing: number;
  /** Indexed rowids that are no chunk. */
  extra: number;
  /** The postings' own document count disagrees with what they hold. */
  countMismatch: boolean;
  /** The bm25 tables are absent. */
  absent: boolean;
}

const ALL_TABLES = ["bm25_pending", "bm25_segments", "bm25_leaves", "bm25_lists", "bm25_forward", "bm25_deleted", "bm25_dead_terms", "bm25_state"];

/** Live indexed rowids, ascending: pending documents plus each segment's documents not tombstoned. */
function indexedRowids(db: Db): { rowids: Float64Array; stateDocs: number } | undefined {
  const tables = new PostingsTables(db);
  const s = tables.statements();
  if (!s) return undefined;
  const state = readState(s);
  const parts: number[] = (db.prepare("SELECT doc FROM bm25_pending").pluck().all() as number[]).slice();
  for (const seg of s.listSegments.all() as SegmentRow[]) {
    const table = decodeDocTable(s.segmentDocs.get(seg.id) as Uint8Array, seg.ndocs);
    const dead = new Set(s.deletedRange.all(key(seg.id, 0), key(seg.id + 1, 0)) as number[]);
    for (let local = 0; local < seg.ndocs; local++) if (!dead.has(key(seg.id, local))) parts.push(table.rowids[local]!);
  }
  const rowids = Float64Array.from(parts).sort();
  return { rowids, stateDocs: state.docs };
}

/** Compare the postings with the chunk rows (a merge of two ascending streams: no set of every chunk in memory). */
export function diffPostings(db: Db): PostingsDiff {
  const indexed = indexedRowids(db);
  if (!indexed) return { missing: Number(db.prepare("SELECT count(*) FROM chunks").pluck().get()), extra: 0, countMismatch: false, absent: true };
  const { rowids } = indexed;
  let missing = 0;
  let extra = 0;
  let i = 0;
  let duplicates = 0;
  for (const id of db.prepare("SELECT id FROM chunks ORDER BY id").pluck().iterate() as IterableIterator<number>) {
    while (i < rowids.length && rowids[i]! < id) {
      extra++;
      i++;
    }
    if (i < rowids.length && rowids[i] === id) {
      i++;
      while (i < rowids.length && rowids[i] === id) {
        duplicates++;
        i++;
      }
    } else missing++;
  }
  extra += rowids.length - i + duplicates;
  return { missing, extra, countMismatch: indexed.stateDocs !== rowids.length, absent: false };
}

/** Chunks re-indexed per page while rebuilding. */
const REBUILD_PAGE = 1000;

/**
 * Rebuild the postings from the chunk rows in ONE transaction (the caller
 * holds the writer lock): readers see the old index until it commits.
 * Returns the number of chunks indexed.
 */
export function rebuildPostings(db: Db): number {
  const tables = new PostingsTables(db);
  let indexed = 0;
  db.transaction(() => {
    for (const table of ALL_TABLES) db.exec(`DROP TABLE IF EXISTS ${table}`);
    tables.create();
    // A fresh index over the fresh tables: its caches start empty.
    const postings = new PostingsIndex(db);
    const page = db.prepare("SELECT id, text, metadata FROM chunks WHERE id > ? ORDER BY id LIMIT ?");
    for (let last = -1; ; ) {
      const rows = page.all(last, REBUILD_PAGE) as Array<{ id: number; text: string; metadata: string }>;
      if (rows.length === 0) break;
      for (const row of rows) {
        const meta = JSON.parse(row.metadata) as { heading_path?: string[] };
        postings.add(row.id, chunkTokens(row.text, meta.heading_path ?? []));
        indexed++;
      }
      last = rows[rows.length - 1]!.id;
    }
  }).immediate();
  return indexed;
}
