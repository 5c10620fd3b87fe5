/**
 * Reading the BM25 postings (postings.ts has the overview): `search` and
 * `stats`, each inside one (deferred) read transaction for a consistent
 * snapshot, or inside the caller's transaction if one is open.
 *
 * `search` looks each term up in every segment (a bounded LRU keeps recently
 * used postings lists), computes exact df and idf, scores the pending
 * documents directly and each segment with MaxScore + block-max pruning
 * (postings-query.ts), largest segment first.
 *
 * Caches hold immutable segment data keyed by a random segment uid, or data
 * keyed by the state's random nonce that every write changes; re-reading the
 * nonce at each query sees other connections' commits without a restart,
 * and a rolled-back change can never be mistaken for a committed one.
 */
import { bm25Params, checkParams, countQueryTerms, queryIdfs } from "../bm25.js";
import { compareBytes, compareTerms, termBytes } from "./postings-codec.js";
import {
  TermStream,
  key,
  readState,
  seekTerm,
  termPostings,
  type PendingRow,
  type PostingsTables,
  type SegmentRow,
  type StateRow,
  type Statements,
} from "./postings-format.js";
import type { PendingRows, PendingView } from "./postings-pending.js";
import {
  PostingCursor,
  PostingList,
  TopK,
  scoreExhaustive,
  scoreSegment,
  type ExhaustiveList,
} from "./postings-query.js";
import type { SegmentCache } from "./postings-segment-cache.js";
import { withScoringScratch } from "./scoring-scratch.js";

/** Postings lists shorter than this are not cached (see `lookup`). */
const CACHE_MIN_BYTES = 4096;

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

/** Memory an entry of the postings cache accounts for. */
function cacheCost(key: string, entry: TermList | null): number {
  return (entry?.list.bytes ?? 0) + 2 * key.length + 64;
}

/** The part of the cache budget for short lists and absent terms. */
const SHORT_CACHE_SHARE = 0.25;

/** Answers queries and statistics from the committed (or the caller's) state. */
export class PostingsReader {
  private readonly readTx: { deferred: (fn: () => unknown) => unknown };
  // Caches keyed by the state's nonce.
  private cacheNonce = -1;
  private segments: SegmentRow[] = [];
  private pending: PendingView | undefined;
  private termCount: number | undefined;
  /** (segment uid, term) -> its postings, least recently used first. */
  private readonly lists = new Map<string, TermList>();
  private listBytes = 0;
  /**
   * (segment uid, term) -> a short list (its bytes copied out of its leaf) or
   * null (the segment lacks the term), least recently used first: what a
   * lookup costs most for a short list is finding it (a leaf read and a scan
   * through its terms), not its bytes, so these are kept too, in a budget of
   * their own ({@link SHORT_CACHE_SHARE} of the cache) that long lists cannot evict.
   */
  private readonly shortLists = new Map<string, TermList | null>();
  private shortBytes = 0;

  constructor(
    private readonly tables: PostingsTables,
    private readonly segmentCache: SegmentCache,
    private readonly pendingRows: PendingRows,
    /** Default BM25 k1 and b (`search` may override them). */
    private readonly k1: number,
    private readonly b: number,
    /** Memory for caching looked-up postings lists between queries (0 disables). */
    private readonly cacheBytes: number,
  ) {
    this.readTx = tables.db.transaction((fn: () => unknown) => fn());
  }

  /** See PostingsIndex.search (postings.ts). */
  search(terms: string[], k: number, opts: PostingsSearchOptions = {}): PostingsHit[] {
    const k1 = opts.k1 ?? this.k1;
    const b = opts.b ?? this.b;
    checkParams(k1, b);
    if (!(k >= 1)) return [];
    const limit = Math.floor(Math.min(k, 1_000_000));
    // A term given n times is one term with n times the weight (query term frequency).
    const q = countQueryTerms(terms);
    if (q.terms.length === 0) return [];
    const s = this.tables.statements();
    if (!s) return [];
    return this.read(() => this.searchSnapshot(s, q.terms, q.qtfs, limit, k1, b, opts.allow));
  }

  /** Run `fn` in a read transaction (one snapshot), or in the caller's open transaction. */
  private read<T>(fn: () => T): T {
    if (this.tables.db.inTransaction) return fn();
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
      this.segmentCache.retain(new Set(this.segments.map((seg) => seg.uid)));
    }
    return st;
  }

  private pendingView(s: Statements): PendingView {
    this.pending ??= this.pendingRows.invert(s.allPending.all() as PendingRow[]);
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
    const short = this.shortLists.get(cacheKey);
    if (short !== undefined) {
      this.shortLists.delete(cacheKey);
      this.shortLists.set(cacheKey, short);
      return short;
    }
    let found: TermList | null = null;
    const c = seekTerm(s, seg.id, term);
    if (c !== undefined) {
      let data = termPostings(s, seg.id, c);
      // A short list is kept as a copy: an inline one is a view of its whole leaf.
      if (this.cacheBytes > 0 && data.length < CACHE_MIN_BYTES) data = data.slice();
      found = { ord: c.ord, list: new PostingList(data, c.df, c.maxTf, c.minDl) };
    }
    if (this.cacheBytes > 0 && (found === null || found.list.data.length < CACHE_MIN_BYTES)) {
      this.shortLists.set(cacheKey, found);
      this.shortBytes += cacheCost(cacheKey, found);
      while (this.shortBytes > this.cacheBytes * SHORT_CACHE_SHARE) {
        const oldest = this.shortLists.keys().next().value!;
        this.shortBytes -= cacheCost(oldest, this.shortLists.get(oldest)!);
        this.shortLists.delete(oldest);
      }
      return found;
    }
    // Long lists cost most to read and belong to the few common terms that recur across queries.
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
    qtfs: number[],
    k: number,
    k1: number,
    b: number,
    allow: ((rowid: number) => boolean) | undefined,
  ): PostingsHit[] {
    const st = this.refresh(s);
    if (st.docs === 0) return [];
    const n = st.docs;
    const p = bm25Params(k1, b, n, st.total_len);
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
    // The query term frequency scales the idf: bounds and scores stay linear in it.
    const idfs = queryIdfs(n, dfs, qtfs);

    const top = new TopK(Math.min(k, n));
    withScoringScratch((scratch) => {
      if (pending) {
        const lists: ExhaustiveList[] = [];
        for (let t = 0; t < terms.length; t++) {
          const id = pending.termIds.get(terms[t]!);
          if (id === undefined) continue;
          const from = pending.start[id]!;
          const to = pending.start[id + 1]!;
          lists.push({ w: idfs[t]! * (k1 + 1), docs: pending.docs.subarray(from, to), tfs: pending.tfs.subarray(from, to) });
        }
        scoreExhaustive(lists, pending.rowids, pending.dls, p, top, allow, scratch);
      }
      // Largest segments first: they raise the k-th score early, which prunes the rest.
      const order = this.segments
        .filter((seg) => bySegment.has(seg.id))
        .sort((x, y) => y.ndocs - y.dead - (x.ndocs - x.dead) || x.id - y.id);
      for (const seg of order) {
        const cursors = bySegment
          .get(seg.id)!
          .map((f, i) => new PostingCursor(f.list, idfs[f.term]!, p, scratch.block(i)));
        const docs = this.segmentCache.docTable(s, seg);
        scoreSegment(cursors, { rowids: docs.rowids, dls: docs.dls, dead: this.segmentCache.deadBitmap(s, seg) }, p, top, allow, scratch);
      }
    });
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

  /** See PostingsIndex.stats (postings.ts). */
  stats(): PostingsStats {
    const s = this.tables.statements();
    if (!s) return { docs: 0, avgdl: 0, terms: 0 };
    return this.read(() => {
      const st = this.refresh(s);
      this.termCount ??= this.countTerms(s, st);
      return { docs: st.docs, avgdl: st.docs > 0 ? st.total_len / st.docs : 0, terms: this.termCount };
    });
  }
}
