/**
 * Our own persisted BM25 index (Lucene/Anserini formulation) in the
 * collection's SQLite file, replacing FTS5's `bm25()` on the query path:
 * FTS5 scores every matching row, which makes long queries slow, and it fixes
 * k1 = 1.2, b = 0.75.
 *
 * Layout: a log-structured merge of immutable segments, the way Lucene and
 * FTS5 themselves organise postings, because per-term in-place appends would
 * rewrite one page per distinct term on every transaction. New documents wait
 * in a pending table until enough of them make a segment; queries score them
 * directly.
 *
 * Where things are:
 * - postings-format.ts: the tables, their key layout and statements, and the
 *   streams that write a segment and read it back (byte codecs:
 *   postings-codec.ts).
 * - postings-writer.ts: `add` and `remove`, flushes and merges, in the
 *   caller's transaction.
 * - postings-reader.ts: `search` and `stats` over one snapshot, with the
 *   postings cache; the scoring itself is postings-query.ts.
 * - postings-pending.ts and postings-segment-cache.ts: the parsed pending
 *   documents and decoded segment data both sides share.
 *
 * Every piece of state is in SQLite; in-memory caches hold only data keyed
 * by random ids that a write or a rollback cannot make reappear, so readers
 * in other connections or processes see new commits without a restart.
 * Nothing is loaded at open; memory holds, per segment queried, its document
 * table (12 bytes per document) and tombstone bitmap, the pending set, and
 * the postings cache (32 MiB by default).
 */
import { GroundkitError } from "../../core/errors.js";
import type { Db } from "./db.js";
import { PostingsTables } from "./postings-format.js";
import { PendingRows } from "./postings-pending.js";
import { BM25_DEFAULTS, checkParams } from "../bm25.js";
import { PostingsReader, type PostingsHit, type PostingsSearchOptions, type PostingsStats } from "./postings-reader.js";
import { SegmentCache } from "./postings-segment-cache.js";
import { PostingsWriter } from "./postings-writer.js";

export type { PostingsHit, PostingsSearchOptions, PostingsStats } from "./postings-reader.js";

/** Construction options; k1 and b are defaults that `search` may override. */
export interface PostingsIndexOptions {
  /** BM25 term-frequency saturation (default 0.9, Anserini's BEIR setting). */
  k1?: number;
  /** BM25 length normalisation, 0..1 (default 0.4). */
  b?: number;
  /** Pending documents that become a segment (default 4096). */
  flushThreshold?: number;
  /** Segments of one level merged into one (default 8). */
  mergeFactor?: number;
  /** Memory for caching looked-up postings lists between queries (default 32 MiB; 0 disables). */
  cacheBytes?: number;
}

/**
 * A persisted BM25 index over integer rowids (chunk ids), stored in `bm25_*`
 * tables of the given database, created if missing (construct it outside any
 * transaction). Feed it the tokens of `analyzeForIndex` and query it with
 * the terms of `analyzeQuery` (src/analysis/analyzer.ts).
 *
 * Scores follow Lucene/Anserini: idf = ln(1 + (N - df + 0.5) / (df + 0.5)),
 * tf part = tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl)), summed
 * over the query's terms, each times its query term frequency.
 *
 * @example
 *   const index = new PostingsIndex(db);
 *   db.transaction(() => index.add(chunkRowid, analyzeForIndex(text))).immediate();
 *   index.search(analyzeQuery("how do citations verify"), 10); // [{ rowid, score }, ...]
 */
export class PostingsIndex {
  private readonly writer: PostingsWriter;
  private readonly reader: PostingsReader;

  constructor(db: Db, opts: PostingsIndexOptions = {}) {
    const k1 = opts.k1 ?? BM25_DEFAULTS.k1;
    const b = opts.b ?? BM25_DEFAULTS.b;
    checkParams(k1, b);
    const flushThreshold = opts.flushThreshold ?? 4096;
    const mergeFactor = opts.mergeFactor ?? 8;
    const cacheBytes = opts.cacheBytes ?? 32 * 1024 * 1024;
    if (!Number.isSafeInteger(flushThreshold) || flushThreshold < 1) {
      throw new GroundkitError("INVALID_ARGUMENT", `flushThreshold must be a positive integer (got ${opts.flushThreshold}).`);
    }
    if (!Number.isSafeInteger(cacheBytes) || cacheBytes < 0) {
      throw new GroundkitError("INVALID_ARGUMENT", `cacheBytes must be a non-negative integer (got ${opts.cacheBytes}).`);
    }
    if (!Number.isSafeInteger(mergeFactor) || mergeFactor < 2) {
      throw new GroundkitError("INVALID_ARGUMENT", `mergeFactor must be an integer >= 2 (got ${opts.mergeFactor}).`);
    }
    const tables = new PostingsTables(db);
    // Create the tables only when missing: a write would wait for any other
    // process's write transaction (a long merge) just to open the index.
    if (!db.readonly && !tables.exist()) tables.create();
    tables.statements();
    // One instance of each, so that what one side parsed or decoded the other reuses.
    const segments = new SegmentCache();
    const pending = new PendingRows(flushThreshold);
    this.writer = new PostingsWriter(tables, segments, pending, flushThreshold, mergeFactor);
    this.reader = new PostingsReader(tables, segments, pending, k1, b, cacheBytes);
  }

  /**
   * Index `tokens` (the document's token stream, repeats included; its length
   * is the document length) under `rowid`. Runs in the caller's transaction.
   * A rowid that is already indexed is refused; remove it first. (Unpaired
   * surrogates in a token are indexed as U+FFFD, on the query side too.)
   */
  add(rowid: number, tokens: string[]): void {
    this.writer.add(rowid, tokens);
  }

  /**
   * Remove `rowid` from the index (its terms are found in the index itself,
   * so the caller need not pass them). Runs in the caller's transaction.
   * Returns whether it was indexed.
   */
  remove(rowid: number): boolean {
    return this.writer.remove(rowid);
  }

  /**
   * The `k` best rowids for `terms` (analyzed query terms; a term given n
   * times weighs n times, empty strings are ignored), by BM25 with `k1`/`b` (defaults from the
   * constructor), best first, equal scores by rowid ascending. Exact: pruning
   * never changes the result. Terms that occur nowhere are ignored; a query
   * none of whose terms occurs returns [].
   */
  search(terms: string[], k: number, opts: PostingsSearchOptions = {}): PostingsHit[] {
    return this.reader.search(terms, k, opts);
  }

  /** Live documents, average length, and distinct live terms (the latter costs a pass over the term dictionary). */
  stats(): PostingsStats {
    return this.reader.stats();
  }
}
