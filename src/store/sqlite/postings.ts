/**
 * Our own persisted BM25 index (Lucene/Anserini formulation) in the
 * collection's SQLite file, replacing FTS5's `bm25()` on the query path:
 * FTS5 scores every matching row, which makes long queries slow, and it fixes
 * k1 = 1.2, b = 0.75.
 *
 * Layout: a log-structured merge of immutable segments, the way Lucene and
 * FTS5 themselves organise postings, because per-term in-place appends would
 * rewrite one page per distinct term on every transaction.
 *
 * - `add` appends one row to `bm25_pending` (the document's terms and tfs);
 *   once {@link PostingsIndexOptions.flushThreshold} documents are pending,
 *   the `add` that crossed it turns them into a level-0 segment, and every
 *   {@link PostingsIndexOptions.mergeFactor} segments of one level are merged
 *   into one of the next level. Queries score pending documents directly.
 * - A segment numbers its documents 0..n-1 in rowid order and stores a
 *   document table (rowid, length), a term dictionary of front-coded leaves
 *   (~3.6 KB rows, found through an index on their first term) holding each
 *   term's df, bounds and, when short, its postings; longer postings lists
 *   get a row of their own (blocks of 128 delta+varint postings with per-block
 *   max tf / min length, see postings-codec.ts); and forward lists
 *   (document -> term ordinals).
 * - `remove` tombstones a document and, through its forward list, counts the
 *   removed postings per (segment, term), so N, avgdl and df stay exact.
 *   A segment a third dead is rewritten without its dead documents.
 * - `search` looks each term up in every segment (a bounded LRU keeps recently
 *   used postings lists), computes exact df and idf, scores the pending
 *   documents directly and each segment with MaxScore + block-max pruning
 *   (postings-query.ts), largest segment first.
 *
 * Transactions: `add` and `remove` never open a transaction; they run in the
 * caller's (one per document replacement; they refuse to run outside one)
 * and a rollback undoes them with it. Flushes and merges happen inside the
 * `add` that triggers them, so an occasional `add` takes longer (a merge into
 * a 262k-document segment: seconds).
 * Every piece of state is in SQLite. In-memory caches hold immutable segment
 * data keyed by a random segment uid, or data keyed by a random nonce that
 * every write changes; a reader (another connection or process) re-reads the
 * nonce at each query and so sees new commits without a restart, and a
 * rolled-back change can never be mistaken for a committed one. `search` and
 * `stats` read inside one (deferred) read transaction for a consistent
 * snapshot, or inside the caller's transaction if one is open.
 *
 * Nothing is loaded at open; memory holds, per segment queried, its document
 * table (12 bytes per document) and tombstone bitmap, the pending set, and
 * the postings cache (32 MiB by default).
 */
import { GroundkitError } from "../../core/errors.js";
import type { Db } from "./db.js";
import { compareBytes, compareTerms, decodeDocTable, decodePostings, findRowid, termBytes, wellFormedTerm, type DocTable } from "./postings-codec.js";
import {
  ForwardReader,
  MAX_SEGMENT_ID,
  PostingsTables,
  SegmentWriter,
  TermStream,
  encodeCounts,
  key,
  parseCounts,
  randomId,
  readState,
  seekTerm,
  termPostings,
  type PendingRow,
  type SegmentRow,
  type StateRow,
  type Statements,
  type TermCounts,
} from "./postings-format.js";
import {
  PostingCursor,
  PostingList,
  TopK,
  WindowScratch,
  scoreExhaustive,
  scoreSegment,
  type Bm25Params,
  type ExhaustiveList,
} from "./postings-query.js";

/** Postings lists shorter than this are not cached (see `lookup`). */
const CACHE_MIN_BYTES = 4096;

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

/** Per-query options. */
export interface PostingsSearchOptions {
  k1?: number;
  b?: number;
  /** Only rowids for which this returns true can be returned (asked during scoring). */
  allow?: (rowid: number) => boolean;
}

/** One result: the indexed rowid and its BM25 score (> 0). */
export interface PostingsHit {
  rowid: number;
  score: number;
}

/** Index statistics. */
export interface PostingsStats {
  /** Live documents (N). */
  docs: number;
  /** Average document length in tokens (0 when empty). */
  avgdl: number;
  /** Distinct terms occurring in at least one live document. */
  terms: number;
}

/** A term's postings in one segment, with its ordinal there. */
interface TermList {
  ord: number;
  list: PostingList;
}

/** Pending documents inverted: postings of term id t are docs/tfs[start[t] .. start[t + 1]). */
interface PendingView {
  rowids: Float64Array;
  dls: Int32Array;
  terms: string[];
  termIds: Map<string, number>;
  start: Int32Array;
  docs: Int32Array;
  tfs: Int32Array;
  /** Term ids of document i: docTerms[docStart[i] .. docStart[i + 1]). */
  docStart: Int32Array;
  docTerms: Int32Array;
}

/** Memory an entry of the postings cache accounts for. */
function cacheCost(key: string, entry: TermList): number {
  return entry.list.bytes + 2 * key.length + 64;
}

function checkParams(k1: number, b: number): void {
  if (!Number.isFinite(k1) || k1 < 0) {
    throw new GroundkitError("INVALID_ARGUMENT", `BM25 k1 must be a finite number >= 0 (got ${k1}).`);
  }
  if (!Number.isFinite(b) || b < 0 || b > 1) {
    throw new GroundkitError("INVALID_ARGUMENT", `BM25 b must be between 0 and 1 (got ${b}).`);
  }
}

function checkRowid(rowid: number): void {
  if (!Number.isSafeInteger(rowid) || rowid < 0) {
    throw new GroundkitError("INTERNAL", `BM25 postings: rowid must be a non-negative safe integer (got ${rowid}).`);
  }
}

/**
 * A persisted BM25 index over integer rowids (chunk ids), stored in `bm25_*`
 * tables of the given database, created if missing (construct it outside any
 * transaction). Feed it the tokens of `analyzeForIndex` and query it with
 * the terms of `analyzeQuery` (src/analysis/analyzer.ts).
 *
 * Scores follow Lucene/Anserini: idf = ln(1 + (N - df + 0.5) / (df + 0.5)),
 * tf part = tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl)).
 *
 * @example
 *   const index = new PostingsIndex(db);
 *   db.transaction(() => index.add(chunkRowid, analyzeForIndex(text))).immediate();
 *   index.search(analyzeQuery("how do citations verify"), 10); // [{ rowid, score }, ...]
 */
export class PostingsIndex {
  private readonly k1: number;
  private readonly b: number;
  private readonly flushThreshold: number;
  private readonly mergeFactor: number;
  private readonly cacheBytes: number;
  private readonly tables: PostingsTables;
  private readonly readTx: { deferred: (fn: () => unknown) => unknown };

  // Caches (see the file comment for why each is safe).
  private cacheNonce = -1;
  private segments: SegmentRow[] = [];
  private pending: PendingView | undefined;
  private termCount: number | undefined;
  private readonly docTables = new Map<number, DocTable>();
  /** (segment uid, term) -> its postings, least recently used first. */
  private readonly lists = new Map<string, TermList>();
  private listBytes = 0;
  /**
   * bm25_pending rows already parsed (written by this instance's `add`, or
   * read before), so flushes and re-reads after other writes do not parse
   * them again. An entry is used only when the stored text is identical, so
   * rolled-back or foreign rows can never be mistaken for it.
   */
  private readonly parsed = new Map<number, TermCounts>();
  private readonly deadBits = new Map<number, { deadUid: number; bits: Uint8Array }>();

  constructor(
    private readonly db: Db,
    opts: PostingsIndexOptions = {},
  ) {
    this.k1 = opts.k1 ?? 0.9;
    this.b = opts.b ?? 0.4;
    checkParams(this.k1, this.b);
    this.flushThreshold = opts.flushThreshold ?? 4096;
    this.mergeFactor = opts.mergeFactor ?? 8;
    this.cacheBytes = opts.cacheBytes ?? 32 * 1024 * 1024;
    if (!Number.isSafeInteger(this.flushThreshold) || this.flushThreshold < 1) {
      throw new GroundkitError("INVALID_ARGUMENT", `flushThreshold must be a positive integer (got ${opts.flushThreshold}).`);
    }
    if (!Number.isSafeInteger(this.cacheBytes) || this.cacheBytes < 0) {
      throw new GroundkitError("INVALID_ARGUMENT", `cacheBytes must be a non-negative integer (got ${opts.cacheBytes}).`);
    }
    if (!Number.isSafeInteger(this.mergeFactor) || this.mergeFactor < 2) {
      throw new GroundkitError("INVALID_ARGUMENT", `mergeFactor must be an integer >= 2 (got ${opts.mergeFactor}).`);
    }
    this.readTx = db.transaction((fn: () => unknown) => fn());
    // Create the tables only when missing: a write would wait for any other
    // process's write transaction (a long merge) just to open the index.
    this.tables = new PostingsTables(db);
    if (!db.readonly && !this.tables.exist()) this.tables.create();
    this.prepared();
  }

  private prepared(): Statements | undefined {
    return this.tables.statements();
  }

  /** Statements for a write, which must run inside the caller's transaction (several rows change together). */
  private writable(): Statements {
    if (!this.db.inTransaction) {
      throw new GroundkitError("INTERNAL", "BM25 postings: add/remove must run inside the caller's transaction.");
    }
    const s = this.prepared();
    if (!s) throw new GroundkitError("INTERNAL", "BM25 postings: the index tables do not exist (read-only connection).");
    return s;
  }

  /**
   * Index `tokens` (the document's token stream, repeats included; its length
   * is the document length) under `rowid`. Runs in the caller's transaction.
   * A rowid that is already indexed is refused; remove it first. (Unpaired
   * surrogates in a token are indexed as U+FFFD, on the query side too.)
   */
  add(rowid: number, tokens: string[]): void {
    checkRowid(rowid);
    const s = this.writable();
    const counts = encodeCounts(tokens);
    const st = readState(s);
    if (rowid <= st.max_seg_doc && this.locateLive(s, rowid) !== undefined) {
      throw new GroundkitError("INTERNAL", `BM25 postings: rowid ${rowid} is already indexed.`);
    }
    try {
      s.insertPending.run(rowid, tokens.length, counts.data);
    } catch (err) {
      if ((err as { code?: string }).code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
        throw new GroundkitError("INTERNAL", `BM25 postings: rowid ${rowid} is already indexed.`, undefined, { cause: err });
      }
      throw err;
    }
    const pending = s.bumpAdd.get(tokens.length, randomId()) as number;
    this.remember(rowid, counts);
    if (pending >= this.flushThreshold) this.flush(s);
  }

  /**
   * Remove `rowid` from the index (its terms are found in the index itself,
   * so the caller need not pass them). Runs in the caller's transaction.
   * Returns whether it was indexed.
   */
  remove(rowid: number): boolean {
    checkRowid(rowid);
    const s = this.writable();
    const st = readState(s);
    const dl = s.deletePending.get(rowid) as number | undefined;
    if (dl !== undefined) {
      s.bumpRemove.run(dl, 1, randomId());
      this.parsed.delete(rowid);
      return true;
    }
    if (rowid > st.max_seg_doc) return false;
    const loc = this.locateLive(s, rowid);
    if (!loc) return false;
    const { seg, local } = loc;
    s.insertDeleted.run(key(seg.id, local));
    const ords: number[] = [];
    const n = new ForwardReader(s, seg.id).read(local, ords);
    for (let i = 0; i < n; i++) s.deadTermInc.run(key(seg.id, ords[i]!));
    s.markDead.run(randomId(), seg.id);
    s.bumpRemove.run(this.docTable(s, seg).dls[local]!, 0, randomId());
    const dead = seg.dead + 1;
    if (dead >= seg.ndocs) this.dropSegment(s, seg.id);
    else if (dead * 3 >= seg.ndocs) this.mergeSegments(s, [s.getSegment.get(seg.id) as SegmentRow], seg.level);
    return true;
  }

  /** The segment and local number holding a live copy of `rowid`, if any. */
  private locateLive(s: Statements, rowid: number): { seg: SegmentRow; local: number } | undefined {
    for (const seg of s.segmentsCovering.all(rowid, rowid) as SegmentRow[]) {
      const local = findRowid(this.docTable(s, seg).rowids, rowid);
      if (local < 0) continue;
      if (seg.dead > 0 && s.isDeleted.get(key(seg.id, local)) !== undefined) continue;
      return { seg, local };
    }
    return undefined;
  }

  private docTable(s: Statements, seg: SegmentRow): DocTable {
    let t = this.docTables.get(seg.uid);
    if (!t) {
      const data = s.segmentDocs.get(seg.id) as Uint8Array | undefined;
      if (data === undefined) throw new GroundkitError("STORE_CORRUPT", `BM25 postings: segment ${seg.id} is missing.`);
      t = decodeDocTable(data, seg.ndocs);
      this.docTables.set(seg.uid, t);
    }
    return t;
  }

  private deadBitmap(s: Statements, seg: SegmentRow): Uint8Array | null {
    if (seg.dead === 0) return null;
    const cached = this.deadBits.get(seg.uid);
    if (cached && cached.deadUid === seg.dead_uid) return cached.bits;
    const bits = new Uint8Array(seg.ndocs);
    const base = key(seg.id, 0);
    for (const id of s.deletedRange.all(base, key(seg.id + 1, 0)) as number[]) bits[id - base] = 1;
    this.deadBits.set(seg.uid, { deadUid: seg.dead_uid, bits });
    return bits;
  }

  private newSegment(s: Statements, rowids: Float64Array, dls: Int32Array): SegmentWriter {
    const seg = s.allocSegment.get() as number;
    if (seg >= MAX_SEGMENT_ID) throw new GroundkitError("INTERNAL", "BM25 postings: segment ids exhausted.");
    return new SegmentWriter(s, seg, rowids, dls);
  }

  private remember(rowid: number, counts: TermCounts): void {
    // Bounded: rolled-back rows and rows flushed by another process linger until cleared.
    if (this.parsed.size > 2 * this.flushThreshold + 64) this.parsed.clear();
    this.parsed.set(rowid, counts);
  }

  /** Invert pending rows (in rowid order) without per-term arrays: count, then fill. */
  private invert(rows: PendingRow[]): PendingView {
    const n = rows.length;
    const rowids = new Float64Array(n);
    const dls = new Int32Array(n);
    const counts: TermCounts[] = new Array(n);
    let entries = 0;
    for (let i = 0; i < n; i++) {
      const row = rows[i]!;
      rowids[i] = row.doc;
      dls[i] = row.dl;
      const known = this.parsed.get(row.doc);
      let c: TermCounts;
      if (known !== undefined && known.data === row.data) {
        c = known;
      } else {
        c = parseCounts(row.data);
        this.remember(row.doc, c);
      }
      counts[i] = c;
      entries += c.terms.length;
    }
    const termIds = new Map<string, number>();
    const terms: string[] = [];
    const docStart = new Int32Array(n + 1);
    const docTerms = new Int32Array(entries);
    const docTfs = new Int32Array(entries);
    let df = new Int32Array(1024);
    let e = 0;
    for (let i = 0; i < n; i++) {
      const c = counts[i]!;
      for (let j = 0; j < c.terms.length; j++) {
        const term = c.terms[j]!;
        let id = termIds.get(term);
        if (id === undefined) {
          id = terms.length;
          termIds.set(term, id);
          terms.push(term);
          if (id >= df.length) {
            const bigger = new Int32Array(df.length * 2);
            bigger.set(df);
            df = bigger;
          }
        }
        df[id]!++;
        docTerms[e] = id;
        docTfs[e] = c.tfs[j]!;
        e++;
      }
      docStart[i + 1] = e;
    }
    const start = new Int32Array(terms.length + 1);
    for (let t = 0; t < terms.length; t++) start[t + 1] = start[t]! + df[t]!;
    const fill = start.slice(0, terms.length);
    const docs = new Int32Array(entries);
    const tfs = new Int32Array(entries);
    for (let i = 0; i < n; i++) {
      for (let x = docStart[i]!; x < docStart[i + 1]!; x++) {
        const at = fill[docTerms[x]!]!++;
        docs[at] = i;
        tfs[at] = docTfs[x]!;
      }
    }
    return { rowids, dls, terms, termIds, start, docs, tfs, docStart, docTerms };
  }

  /** Turn the pending documents into a level-0 segment, then merge full levels. */
  private flush(s: Statements): void {
    const rows = s.allPending.all() as PendingRow[];
    if (rows.length > 0) {
      const v = this.invert(rows);
      const order = v.terms.map((_, i) => i).sort((x, y) => compareTerms(v.terms[x]!, v.terms[y]!));
      const ordOf = new Int32Array(v.terms.length);
      const w = this.newSegment(s, v.rowids, v.dls);
      for (const id of order) {
        const from = v.start[id]!;
        const to = v.start[id + 1]!;
        ordOf[id] = w.addTerm(termBytes(v.terms[id]!), v.docs.subarray(from, to), v.tfs.subarray(from, to), to - from);
      }
      for (let i = 0; i < rows.length; i++) {
        const ords = v.docTerms.slice(v.docStart[i]!, v.docStart[i + 1]!);
        for (let j = 0; j < ords.length; j++) ords[j] = ordOf[ords[j]!]!;
        ords.sort();
        w.addForward(ords, ords.length);
      }
      w.finish(0);
      s.clearPending.run();
    }
    this.parsed.clear();
    s.pendingFlushed.run(randomId());
    this.mergeLevels(s);
  }

  /** Merge the oldest `mergeFactor` segments of the lowest full level, until no level is full. */
  private mergeLevels(s: Statements): void {
    for (;;) {
      const byLevel = new Map<number, SegmentRow[]>();
      for (const seg of s.listSegments.all() as SegmentRow[]) {
        const list = byLevel.get(seg.level) ?? [];
        list.push(seg);
        byLevel.set(seg.level, list);
      }
      const full = [...byLevel.entries()].filter(([, l]) => l.length >= this.mergeFactor).sort((a, b) => a[0] - b[0])[0];
      if (!full) return;
      this.mergeSegments(s, full[1].slice(0, this.mergeFactor), full[0] + 1);
    }
  }

  private dropSegment(s: Statements, seg: number): void {
    const lo = key(seg, 0);
    const hi = key(seg + 1, 0);
    s.deleteLeafRange.run(lo, hi);
    s.deleteListRange.run(lo, hi);
    s.deleteForwardRange.run(lo, hi);
    s.deleteDeletedRange.run(lo, hi);
    s.deleteDeadTermRange.run(lo, hi);
    s.deleteSegment.run(seg);
    s.touch.run(randomId());
  }

  /**
   * Rewrite `sources` as one segment at `level`, dropping tombstoned
   * documents. Streams terms and forward lists; memory is bounded by the
   * document tables and the largest single postings list.
   */
  private mergeSegments(s: Statements, sources: SegmentRow[], level: number): void {
    const k = sources.length;
    const tables = sources.map((seg) => this.docTable(s, seg));
    const deads = sources.map((seg) => this.deadBitmap(s, seg));
    // New document order: the sources' live documents merged by rowid.
    let live = 0;
    for (const seg of sources) live += seg.ndocs - seg.dead;
    const rowids = new Float64Array(live);
    const dls = new Int32Array(live);
    const srcOf = new Int32Array(live);
    const oldOf = new Int32Array(live);
    const newLocal = sources.map((seg) => new Int32Array(seg.ndocs).fill(-1));
    const heads = new Int32Array(k);
    const skipDead = (i: number): void => {
      const dead = deads[i];
      if (!dead) return;
      while (heads[i]! < sources[i]!.ndocs && dead[heads[i]!] === 1) heads[i]!++;
    };
    for (let i = 0; i < k; i++) skipDead(i);
    for (let j = 0; j < live; j++) {
      let best = -1;
      let bestRowid = Infinity;
      for (let i = 0; i < k; i++) {
        if (heads[i]! >= sources[i]!.ndocs) continue;
        const r = tables[i]!.rowids[heads[i]!]!;
        if (r < bestRowid) {
          bestRowid = r;
          best = i;
        }
      }
      const old = heads[best]!;
      rowids[j] = bestRowid;
      dls[j] = tables[best]!.dls[old]!;
      srcOf[j] = best;
      oldOf[j] = old;
      newLocal[best]![old] = j;
      heads[best]!++;
      skipDead(best);
    }
    if (live > 0) {
      const w = this.newSegment(s, rowids, dls);
      const ordMaps = this.mergeTerms(s, sources, newLocal, w);
      // Forward lists in the new order; ordinals map monotonically (both sides sorted by term).
      const readers = sources.map((seg) => new ForwardReader(s, seg.id));
      const ords: number[] = [];
      for (let j = 0; j < live; j++) {
        const src = srcOf[j]!;
        const n = readers[src]!.read(oldOf[j]!, ords);
        const map = ordMaps[src]!;
        for (let i = 0; i < n; i++) ords[i] = map[ords[i]!]!;
        w.addForward(ords, n);
      }
      w.finish(level);
    }
    for (const seg of sources) {
      this.dropSegment(s, seg.id);
      this.docTables.delete(seg.uid);
      this.deadBits.delete(seg.uid);
    }
  }

  /**
   * Merge the sources' terms (each source streams them in order) into the
   * writer; returns per source the old ordinal -> new ordinal maps.
   */
  private mergeTerms(s: Statements, sources: SegmentRow[], newLocal: Int32Array[], w: SegmentWriter): Int32Array[] {
    const k = sources.length;
    const ordMaps = sources.map((seg) => new Int32Array(seg.nterms).fill(-1));
    const streams = sources.map((seg) => new TermStream(s, seg.id));
    const live = streams.map((st) => st.next());
    let docs = new Int32Array(1024);
    let tfs = new Int32Array(1024);
    let outDocs = new Int32Array(1024);
    let outTfs = new Int32Array(1024);
    const parts: Array<{ start: number; end: number }> = [];
    const from: Array<[number, number]> = [];
    for (;;) {
      // The smallest current term among the streams.
      let min = -1;
      for (let i = 0; i < k; i++) {
        if (!live[i]) continue;
        if (min < 0) {
          min = i;
          continue;
        }
        const a = streams[i]!.cursor!;
        const b = streams[min]!.cursor!;
        if (compareBytes(a.term(), a.termLength, b.term(), b.termLength) < 0) min = i;
      }
      if (min < 0) break;
      const term = streams[min]!.cursor!.termCopy();
      // Decode every source's list for this term, remapped to new local numbers.
      parts.length = 0;
      from.length = 0;
      let total = 0;
      for (let i = 0; i < k; i++) {
        if (!live[i]) continue;
        const st = streams[i]!;
        const c = st.cursor!;
        if (compareBytes(c.term(), c.termLength, term, term.length) !== 0) continue;
        const df = c.df;
        from.push([i, c.ord]);
        if (docs.length < total + df) {
          const size = Math.max(docs.length * 2, total + df);
          const nd = new Int32Array(size);
          nd.set(docs.subarray(0, total));
          docs = nd;
          const nt = new Int32Array(size);
          nt.set(tfs.subarray(0, total));
          tfs = nt;
        }
        decodePostings(st.postings(), df, docs.subarray(total), tfs.subarray(total));
        const map = newLocal[i]!;
        let kept = total;
        for (let j = total; j < total + df; j++) {
          const nl = map[docs[j]!]!;
          if (nl < 0) continue; // tombstoned
          docs[kept] = nl;
          tfs[kept] = tfs[j]!;
          kept++;
        }
        if (kept > total) parts.push({ start: total, end: kept });
        total = kept;
        live[i] = st.next();
      }
      if (total === 0) continue; // every posting was tombstoned
      if (outDocs.length < total) {
        outDocs = new Int32Array(Math.max(outDocs.length * 2, total));
        outTfs = new Int32Array(outDocs.length);
      }
      // k-way merge of the (individually sorted, disjoint) runs.
      const cursor = parts.map((p) => p.start);
      for (let o = 0; o < total; o++) {
        let best = -1;
        let bestDoc = Infinity;
        for (let p = 0; p < parts.length; p++) {
          const c = cursor[p]!;
          if (c < parts[p]!.end && docs[c]! < bestDoc) {
            bestDoc = docs[c]!;
            best = p;
          }
        }
        const c = cursor[best]!++;
        outDocs[o] = bestDoc;
        outTfs[o] = tfs[c]!;
      }
      const ord = w.addTerm(term, outDocs, outTfs, total);
      for (const [src, old] of from) ordMaps[src]![old] = ord;
    }
    return ordMaps;
  }

  /**
   * The `k` best rowids for `terms` (distinct analyzed query terms; repeats
   * and empty strings are ignored), by BM25 with `k1`/`b` (defaults from the
   * constructor), best first, equal scores by rowid ascending. Exact: pruning
   * never changes the result. Terms that occur nowhere are ignored; a query
   * none of whose terms occurs returns [].
   */
  search(terms: string[], k: number, opts: PostingsSearchOptions = {}): PostingsHit[] {
    const k1 = opts.k1 ?? this.k1;
    const b = opts.b ?? this.b;
    checkParams(k1, b);
    if (!(k >= 1)) return [];
    const limit = Math.floor(Math.min(k, 1_000_000));
    const uniq: string[] = [];
    const seen = new Set<string>();
    for (const term of terms) {
      if (typeof term !== "string" || term === "") continue;
      const t = wellFormedTerm(term);
      if (seen.has(t)) continue;
      seen.add(t);
      uniq.push(t);
    }
    if (uniq.length === 0) return [];
    const s = this.prepared();
    if (!s) return [];
    return this.read(() => this.searchSnapshot(s, uniq, limit, k1, b, opts.allow));
  }

  /** Run `fn` in a read transaction (one snapshot), or in the caller's open transaction. */
  private read<T>(fn: () => T): T {
    if (this.db.inTransaction) return fn();
    return this.readTx.deferred(fn) as T;
  }

  /** Read the state and drop caches made stale by other writes. */
  private refresh(s: Statements): StateRow {
    const st = readState(s);
    if (st.nonce !== this.cacheNonce) {
      this.segments = s.listSegments.all() as SegmentRow[];
      this.pending = undefined;
      this.termCount = undefined;
      this.cacheNonce = st.nonce;
      const uids = new Set(this.segments.map((seg) => seg.uid));
      for (const uid of this.docTables.keys()) if (!uids.has(uid)) this.docTables.delete(uid);
      for (const uid of this.deadBits.keys()) if (!uids.has(uid)) this.deadBits.delete(uid);
    }
    return st;
  }

  private pendingView(s: Statements): PendingView {
    this.pending ??= this.invert(s.allPending.all() as PendingRow[]);
    return this.pending;
  }

  /** A term's postings in a segment (null when absent), through the LRU cache. */
  private lookup(s: Statements, seg: SegmentRow, term: string): TermList | null {
    const cacheKey = `${seg.uid}:${term}`;
    const hit = this.lists.get(cacheKey);
    if (hit !== undefined) {
      // Refresh its recency.
      this.lists.delete(cacheKey);
      this.lists.set(cacheKey, hit);
      return hit;
    }
    let found: TermList | null = null;
    const c = seekTerm(s, seg.id, term);
    if (c !== undefined) found = { ord: c.ord, list: new PostingList(termPostings(s, seg.id, c), c.df, c.maxTf, c.minDl) };
    // Only long lists are worth keeping: they cost most to read, belong to the
    // few common terms that recur across queries, and caching every short one
    // would churn the cache (and the garbage collector) on rare-term queries.
    if (this.cacheBytes > 0 && found !== null && found.list.data.length >= CACHE_MIN_BYTES) {
      this.lists.set(cacheKey, found);
      this.listBytes += cacheCost(cacheKey, found);
      while (this.listBytes > this.cacheBytes) {
        const oldest = this.lists.keys().next().value!;
        this.listBytes -= cacheCost(oldest, this.lists.get(oldest)!);
        this.lists.delete(oldest);
      }
    }
    return found;
  }

  private searchSnapshot(
    s: Statements,
    terms: string[],
    k: number,
    k1: number,
    b: number,
    allow: ((rowid: number) => boolean) | undefined,
  ): PostingsHit[] {
    const st = this.refresh(s);
    if (st.docs === 0) return [];
    const n = st.docs;
    const avgdl = st.total_len / n;
    const p: Bm25Params = { k1, normA: k1 * (1 - b), normB: avgdl > 0 ? (k1 * b) / avgdl : 0 };
    const pending = st.pending > 0 ? this.pendingView(s) : undefined;

    // Document frequencies: live postings in every segment, plus pending.
    const dfs = new Array<number>(terms.length).fill(0);
    const bySegment = new Map<number, Array<{ term: number; list: PostingList }>>();
    for (let t = 0; t < terms.length; t++) {
      const term = terms[t]!;
      const pid = pending?.termIds.get(term);
      let df = pid === undefined ? 0 : pending!.start[pid + 1]! - pending!.start[pid]!;
      for (const seg of this.segments) {
        const found = this.lookup(s, seg, term);
        if (found === null) continue;
        const dead = seg.dead > 0 ? ((s.deadTermCount.get(key(seg.id, found.ord)) as number | undefined) ?? 0) : 0;
        if (found.list.df - dead <= 0) continue;
        df += found.list.df - dead;
        let list = bySegment.get(seg.id);
        if (!list) bySegment.set(seg.id, (list = []));
        list.push({ term: t, list: found.list });
      }
      dfs[t] = df;
    }
    if (dfs.every((df) => df === 0)) return [];
    const idfs = dfs.map((df) => (df > 0 ? Math.log(1 + (n - df + 0.5) / (df + 0.5)) : 0));

    const top = new TopK(Math.min(k, n));
    if (pending) {
      const lists: ExhaustiveList[] = [];
      for (let t = 0; t < terms.length; t++) {
        const id = pending.termIds.get(terms[t]!);
        if (id === undefined) continue;
        const from = pending.start[id]!;
        const to = pending.start[id + 1]!;
        lists.push({ w: idfs[t]! * (k1 + 1), docs: pending.docs.subarray(from, to), tfs: pending.tfs.subarray(from, to) });
      }
      scoreExhaustive(lists, pending.rowids, pending.dls, p, top, allow);
    }
    const scratch = new WindowScratch();
    // Largest segments first: they raise the k-th score early, which prunes the rest.
    const order = this.segments
      .filter((seg) => bySegment.has(seg.id))
      .sort((x, y) => y.ndocs - y.dead - (x.ndocs - x.dead) || x.id - y.id);
    for (const seg of order) {
      const cursors = bySegment
        .get(seg.id)!
        .map((f) => new PostingCursor(f.list, idfs[f.term]!, p));
      const docs = this.docTable(s, seg);
      scoreSegment(cursors, { rowids: docs.rowids, dls: docs.dls, dead: this.deadBitmap(s, seg) }, p, top, allow, scratch);
    }
    return top.sorted();
  }

  /** Distinct terms with a live posting: a merge over every segment's terms and the pending ones. */
  private countTerms(s: Statements, st: StateRow): number {
    const pendingTerms = st.pending > 0 ? [...this.pendingView(s).terms].sort(compareTerms).map(termBytes) : [];
    let pi = 0;
    const streams = this.segments.map((seg) => new TermStream(s, seg.id));
    const live = streams.map((x) => x.next());
    const deadMaps = this.segments.map((seg) => {
      const m = new Map<number, number>();
      if (seg.dead === 0) return m;
      const base = key(seg.id, 0);
      for (const r of s.deadTermRange.all(base, key(seg.id + 1, 0)) as Array<{ id: number; n: number }>) m.set(r.id - base, r.n);
      return m;
    });
    let count = 0;
    for (;;) {
      let min: Uint8Array | undefined = pi < pendingTerms.length ? pendingTerms[pi] : undefined;
      for (let i = 0; i < streams.length; i++) {
        if (!live[i]) continue;
        const c = streams[i]!.cursor!;
        if (min === undefined || compareBytes(c.term(), c.termLength, min, min.length) < 0) min = c.termCopy();
      }
      if (min === undefined) return count;
      let alive = false;
      if (pi < pendingTerms.length && compareBytes(pendingTerms[pi]!, pendingTerms[pi]!.length, min, min.length) === 0) {
        alive = true;
        pi++;
      }
      for (let i = 0; i < streams.length; i++) {
        if (!live[i]) continue;
        const c = streams[i]!.cursor!;
        if (compareBytes(c.term(), c.termLength, min, min.length) !== 0) continue;
        if (c.df > (deadMaps[i]!.get(c.ord) ?? 0)) alive = true;
        live[i] = streams[i]!.next();
      }
      if (alive) count++;
    }
  }

  /** Live documents, average length, and distinct live terms (the latter costs a pass over the term dictionary). */
  stats(): PostingsStats {
    const s = this.prepared();
    if (!s) return { docs: 0, avgdl: 0, terms: 0 };
    return this.read(() => {
      const st = this.refresh(s);
      this.termCount ??= this.countTerms(s, st);
      return { docs: st.docs, avgdl: st.docs > 0 ? st.total_len / st.docs : 0, terms: this.termCount };
    });
  }
}
