/**
 * BM25 top-k on PostgreSQL at the SQLite engine's speed (ADR 0020): one
 * statement reads, from one snapshot, the statistics, each query term's
 * per-segment entry (df, bounds, and its block-encoded postings only when this
 * process does not hold them yet), the segments' tombstones when they changed,
 * and the tail's postings (chunks above every segment) row by row. The process
 * then scores with the SQLite engine's own code (store/sqlite/postings-query.ts:
 * MaxScore with block-max bounds, exact top-k, ties by row id), so scores are
 * the same arithmetic on the same numbers.
 *
 * Caches hold only immutable data keyed by a segment's random uid (its
 * postings and document table) or by (uid, tombstone count), which a rollback
 * or another process's write can never make stand for something else.
 */
import { bm25Params, checkParams, countQueryTerms, queryIdfs, BM25_DEFAULTS } from "../bm25.js";
import { decodeDocTable, findRowid, type DocTable } from "../sqlite/postings-codec.js";
import { PostingCursor, PostingList, TopK, scoreExhaustive, scoreSegment, type ExhaustiveList } from "../sqlite/postings-query.js";
import { withScoringScratch, type ScoringScratch } from "../sqlite/scoring-scratch.js";
import { rowsOf, type NamedStatement, type Queryable } from "./queryable.js";

/** One hit: the chunk's row id and its BM25 score. */
export interface LexicalHit {
  rowid: number;
  score: number;
}

/** A search's hits, and the OID of the `chunks` table they are rows of (which names this incarnation of the collection). */
export interface LexicalHits {
  hits: LexicalHit[];
  table: number;
  /** How many documents have moved in place (meta `moves`): rows cached before a move name its old source. */
  moves: number;
}

/** The meta key counting documents moved in place (postgres-store.ts moveDocument). */
export const MOVES_KEY = "moves";

/** A filter as SQL selecting the allowed chunk ids (`SELECT c.id FROM …`), with its parameters from $1. */
export interface AllowedChunksSql {
  sql: string;
  params: unknown[];
}

interface Row {
  kind: "state" | "seg" | "term" | "tail" | "allow";
  /** seg: uid; term: uid of its segment. */
  uid: number | null;
  a: number | null;
  b: number | null;
  c: number | null;
  d: number | null;
  e: number | null;
  data: Uint8Array | null;
  ids: number[] | null;
  tfs: number[] | null;
  dls: number[] | null;
}

/** Default memory for cached postings lists (as the SQLite engine's). */
const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * The search statement. $1 the query's terms, $2 the "uid:term" lists this
 * process holds, $3 the segment uids whose document table it holds, $4 the
 * "uid:dead" tombstone sets it holds; the allowed-chunks SELECT follows with
 * its own parameters renumbered from $5.
 */
function searchSql(allowed: string | undefined): string {
  return `WITH segs AS (SELECT id, uid, ndocs, dead, hi FROM bm25_segments),
    top_hi AS (SELECT coalesce(max(hi), 0) AS hi FROM segs),
    q AS (SELECT t, i FROM unnest($1::text[]) WITH ORDINALITY AS q(t, i))
  SELECT 'state' AS kind, NULL::float8 AS uid, s.docs::float8 AS a, s.total_len::float8 AS b, to_regclass('chunks')::oid::int8::float8 AS c,
    coalesce((SELECT m.value FROM meta m WHERE m.key = '${MOVES_KEY}')::float8, 0) AS d, NULL::float8 AS e, NULL::bytea AS data, NULL::float8[] AS ids, NULL::int[] AS tfs, NULL::int[] AS dls
  FROM bm25_stats s
  UNION ALL
  SELECT 'seg', g.uid, g.ndocs, g.dead, NULL, NULL, NULL,
    CASE WHEN g.uid::text = ANY($3::text[]) THEN NULL ELSE (SELECT x.docs FROM bm25_segments x WHERE x.id = g.id) END,
    CASE WHEN g.dead = 0 OR (g.uid || ':' || g.dead) = ANY($4::text[]) THEN NULL
      ELSE (SELECT array_agg(z.chunk::float8) FROM bm25_segment_dead z WHERE z.seg = g.id) END,
    NULL, NULL
  FROM segs g
  UNION ALL
  SELECT 'term', g.uid, q.i, st.df, st.dead, st.max_tf, st.min_dl,
    CASE WHEN (g.uid || ':' || q.t) = ANY($2::text[]) THEN NULL ELSE st.data END, NULL, NULL, NULL
  FROM q, LATERAL (
      -- Per query term, by the (term, seg) keys: whatever the statistics say about these tables.
      SELECT t.seg, t.df, t.max_tf, t.min_dl, t.data,
        coalesce((SELECT dt.n FROM bm25_segment_dead_terms dt WHERE dt.term = q.t AND dt.seg = t.seg), 0) AS dead
      FROM bm25_segment_terms t WHERE t.term = q.t) st
    JOIN segs g ON g.id = st.seg
  UNION ALL
  SELECT 'tail', NULL, q.i, NULL, NULL, NULL, NULL, NULL, p.ids, p.tfs, p.dls
  FROM q, top_hi h, LATERAL (SELECT array_agg(x.chunk::float8 ORDER BY x.chunk) AS ids, array_agg(x.tf ORDER BY x.chunk) AS tfs,
      array_agg(x.dl ORDER BY x.chunk) AS dls FROM bm25_postings x WHERE x.term = q.t AND x.chunk > h.hi) p
  WHERE p.ids IS NOT NULL
  ${
    allowed
      ? `UNION ALL SELECT 'allow', NULL, NULL, NULL, NULL, NULL, NULL, NULL,
           (SELECT array_agg(a.id::float8) FROM (${allowed}) AS a(id)), NULL, NULL`
      : ""
  }`;
}

/** The statement without a filter, named: prepared once per connection, never planned again. */
const SEARCH: NamedStatement = { name: "grk_bm25_search_v3", text: searchSql(undefined) };

/** A cached item a reply left out was evicted meanwhile (by a concurrent search): ask again, sending no cache keys. */
class CacheRace extends Error {}

/** Shift a SELECT's placeholders $n to $(n + by). */
function shiftParams(sql: string, by: number): string {
  return sql.replace(/\$(\d+)/g, (_m, n: string) => `$${Number(n) + by}`);
}

/**
 * BM25 search over one collection's schema (the connection's search_path
 * names it). Keep one per collection and process: it holds the caches.
 */
export class PgLexicalSearch {
  private readonly lists = new Map<string, PostingList>();
  /** term -> uids of the segments whose list of it is cached. */
  private readonly listsByTerm = new Map<string, Set<number>>();
  private listBytes = 0;
  private readonly docTables = new Map<number, DocTable>();
  private readonly deadSets = new Map<number, { dead: number; bits: Uint8Array }>();

  constructor(
    private readonly cacheBytes = DEFAULT_CACHE_BYTES,
    private readonly k1: number = BM25_DEFAULTS.k1,
    private readonly b: number = BM25_DEFAULTS.b,
  ) {
    checkParams(k1, b);
  }

  /**
   * The `k` best chunks for the analyzed query `terms` (a term given n times
   * weighs n times), best first, equal scores by row id; with `allowed`, the
   * best among the chunks it selects. One statement: one snapshot.
   */
  async search(q: Queryable, terms: readonly string[], k: number, allowed?: AllowedChunksSql): Promise<LexicalHit[]> {
    return (await this.find(q, terms, k, allowed)).hits;
  }

  /** {@link search}, with the OID of the `chunks` table the hits are rows of (a key for rows cached by id). */
  async find(q: Queryable, terms: readonly string[], k: number, allowed?: AllowedChunksSql): Promise<LexicalHits> {
    const query = countQueryTerms(terms);
    if (query.terms.length === 0 || !(k >= 1)) return { hits: [], table: 0, moves: 0 };
    const limit = Math.floor(Math.min(k, 1_000_000));
    // A filter's SQL varies with the filter: planned each time.
    const sql = allowed ? searchSql(shiftParams(allowed.sql, 4)) : SEARCH;
    for (let attempt = 0; ; attempt++) {
      const cachedLists: string[] = [];
      const cachedDocs: string[] = [];
      const cachedDead: string[] = [];
      if (attempt === 0) {
        for (const t of query.terms) for (const uid of this.listsByTerm.get(t) ?? []) cachedLists.push(`${uid}:${t}`);
        for (const uid of this.docTables.keys()) cachedDocs.push(String(uid));
        for (const [uid, d] of this.deadSets) cachedDead.push(`${uid}:${d.dead}`);
      }
      const rows = await rowsOf<Row>(q, sql, [query.terms, cachedLists, cachedDocs, cachedDead, ...(allowed?.params ?? [])]);
      try {
        const state = rows.find((r) => r.kind === "state");
        return { hits: this.score(rows, query.terms, query.qtfs, limit), table: state?.c ?? 0, moves: state?.d ?? 0 };
      } catch (err) {
        if (!(err instanceof CacheRace) || attempt > 0) throw err;
      }
    }
  }

  private score(rows: Row[], terms: string[], qtfs: number[], k: number): LexicalHit[] {
    const state = rows.find((r) => r.kind === "state");
    const n = state?.a ?? 0;
    if (n === 0) return [];
    const p = bm25Params(this.k1, this.b, n, state!.b!);
    const segs = new Map<number, { ndocs: number; dead: number; docs: DocTable; bits: Uint8Array | null; lists: Array<{ term: number; list: PostingList }> }>();
    const live = new Set<number>();
    for (const r of rows) {
      if (r.kind !== "seg") continue;
      const uid = r.uid!;
      live.add(uid);
      let docs = this.docTables.get(uid);
      if (!docs) {
        if (r.data === null) throw new CacheRace();
        docs = decodeDocTable(r.data, r.a!);
        this.docTables.set(uid, docs);
      }
      segs.set(uid, { ndocs: r.a!, dead: r.b!, docs, bits: this.deadBits(uid, r.b!, r.ids, docs), lists: [] });
    }
    this.forgetSegmentsBut(live);
    const dfs = new Array<number>(terms.length).fill(0);
    const tails: Array<Row | undefined> = new Array(terms.length);
    let allow: ((rowid: number) => boolean) | undefined;
    for (const r of rows) {
      if (r.kind === "term") {
        const t = r.a! - 1;
        const seg = segs.get(r.uid!)!;
        const live_ = r.b! - r.c!;
        if (live_ <= 0) continue;
        dfs[t] = dfs[t]! + live_;
        seg.lists.push({ term: t, list: this.list(r.uid!, terms[t]!, r) });
      } else if (r.kind === "tail") {
        const t = r.a! - 1;
        tails[t] = r;
        dfs[t] = dfs[t]! + r.ids!.length;
      } else if (r.kind === "allow") {
        const ok = new Set(r.ids ?? []);
        allow = (rowid) => ok.has(rowid);
      }
    }
    if (dfs.every((df) => df === 0)) return [];
    const idfs = queryIdfs(n, dfs, qtfs);
    const top = new TopK(Math.min(k, n));
    withScoringScratch((scratch) => {
      this.scoreTail(tails, idfs, p, top, allow, scratch);
      // Largest segments first: they raise the k-th score early, which prunes the rest (as the SQLite engine).
      const order = [...segs.entries()].filter(([, s]) => s.lists.length > 0).sort(([ua, a], [ub, b]) => b.ndocs - b.dead - (a.ndocs - a.dead) || ua - ub);
      for (const [, seg] of order) {
        const cursors = seg.lists.map((l, i) => new PostingCursor(l.list, idfs[l.term]!, p, scratch.block(i)));
        scoreSegment(cursors, { rowids: seg.docs.rowids, dls: seg.docs.dls, dead: seg.bits }, p, top, allow, scratch);
      }
    });
    return top.sorted();
  }

  /** The tail's postings (one row list per term) scored exhaustively: it is small between segment builds. */
  private scoreTail(
    tails: Array<Row | undefined>,
    idfs: number[],
    p: ReturnType<typeof bm25Params>,
    top: TopK,
    allow: ((rowid: number) => boolean) | undefined,
    scratch: ScoringScratch,
  ): void {
    const index = new Map<number, number>();
    const rowids: number[] = [];
    const dls: number[] = [];
    const lists: ExhaustiveList[] = [];
    tails.forEach((r, t) => {
      if (!r) return;
      const docs = new Int32Array(r.ids!.length);
      r.ids!.forEach((id, j) => {
        let d = index.get(id);
        if (d === undefined) {
          d = rowids.length;
          index.set(id, d);
          rowids.push(id);
          dls.push(r.dls![j]!);
        }
        docs[j] = d;
      });
      lists.push({ w: idfs[t]! * (p.k1 + 1), docs, tfs: r.tfs! });
    });
    if (lists.length > 0) scoreExhaustive(lists, Float64Array.from(rowids), Int32Array.from(dls), p, top, allow, scratch);
  }

  /** A segment's postings list of a term: from the row when sent, else from the cache. */
  private list(uid: number, term: string, r: Row): PostingList {
    const key = `${uid}:${term}`;
    const cached = this.lists.get(key);
    if (cached) {
      // Refresh its recency.
      this.lists.delete(key);
      this.lists.set(key, cached);
      return cached;
    }
    if (r.data === null) throw new CacheRace();
    const list = new PostingList(r.data, r.b!, r.d!, r.e!);
    if (this.cacheBytes > 0) {
      this.lists.set(key, list);
      let uids = this.listsByTerm.get(term);
      if (!uids) this.listsByTerm.set(term, (uids = new Set()));
      uids.add(uid);
      this.listBytes += list.bytes + 2 * key.length;
      while (this.listBytes > this.cacheBytes) this.evict(this.lists.keys().next().value!);
    }
    return list;
  }

  private evict(key: string): void {
    const list = this.lists.get(key);
    if (!list) return;
    this.lists.delete(key);
    this.listBytes -= list.bytes + 2 * key.length;
    const colon = key.indexOf(":");
    const uid = Number(key.slice(0, colon));
    const term = key.slice(colon + 1);
    const uids = this.listsByTerm.get(term);
    uids?.delete(uid);
    if (uids?.size === 0) this.listsByTerm.delete(term);
  }

  /** The segment's tombstones as a bitmap over its local documents (null when none). */
  private deadBits(uid: number, dead: number, ids: number[] | null, docs: DocTable): Uint8Array | null {
    if (dead === 0) return null;
    const cached = this.deadSets.get(uid);
    if (cached && cached.dead === dead) return cached.bits;
    if (ids === null) throw new CacheRace();
    const bits = new Uint8Array(docs.rowids.length);
    for (const id of ids) {
      const local = findRowid(docs.rowids, id);
      if (local >= 0) bits[local] = 1;
    }
    this.deadSets.set(uid, { dead, bits });
    return bits;
  }

  /** Drop what belongs to segments that no longer exist (the lists only when some went: sweeping them costs the cache's size). */
  private forgetSegmentsBut(live: ReadonlySet<number>): void {
    const gone = [...this.docTables.keys()].some((uid) => !live.has(uid));
    for (const uid of this.docTables.keys()) if (!live.has(uid)) this.docTables.delete(uid);
    for (const uid of this.deadSets.keys()) if (!live.has(uid)) this.deadSets.delete(uid);
    if (gone) for (const key of [...this.lists.keys()]) if (!live.has(Number(key.slice(0, key.indexOf(":"))))) this.evict(key);
  }
}
