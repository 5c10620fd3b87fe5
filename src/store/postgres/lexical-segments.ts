/**
 * Building the PostgreSQL BM25 segments (tables: lexical-schema.ts; why:
 * ADR 0020). A writer's step, like the vector index sync: after an ingest it
 * turns the tail (chunks above every segment) into a new segment once the
 * tail holds `flushThreshold` chunks, and rebuilds every segment into one when
 * there are more than `mergeFactor` of them or a quarter of their documents
 * are tombstoned. Everything is read from `bm25_postings`, so the segments can
 * always be thrown away and rebuilt (`rebuild: true`); each records the
 * collection generation it was built at.
 *
 * One REPEATABLE READ transaction that first locks `chunks` and
 * `bm25_postings` in SHARE mode: writers wait for the build (and the build
 * for writers in flight), so no chunk can appear below a new segment's `hi`
 * after it was built, and no removal can miss the tombstone trigger's view of
 * it. Readers never wait (MVCC).
 */
import { randomInt } from "node:crypto";
import { GroundkitError } from "../../core/errors.js";
import { encodeDocTable, encodePostings } from "../sqlite/postings-codec.js";
import { rowsOf, type Queryable } from "./queryable.js";

/** When the writer's sync builds. */
export interface SegmentPolicy {
  /** Tail chunks that make a new segment (default 4096, as the SQLite engine's pending flush). */
  flushThreshold?: number;
  /** More segments than this are merged into one (default 8). */
  mergeFactor?: number;
  /** Build whatever the tail holds, even below the threshold. */
  flushTail?: boolean;
  /** Throw every segment away and build one from all postings. */
  rebuild?: boolean;
}

/** What a sync did. */
export interface SegmentSync {
  /** "none", a new segment over the tail, or every segment rebuilt into one. */
  built: "none" | "tail" | "all";
  /** Segments after the sync. */
  segments: number;
  /** Chunks (with postings) the new segment holds. */
  chunks: number;
  /** meta.generation the new segment reflects. */
  generation: number;
}

/** Terms inserted per statement. */
const TERMS_PER_STATEMENT = 4000;

/**
 * Bring the segments up to date under the policy. `client` must be one
 * connection (a pg.PoolClient or pg.Client) outside any transaction.
 */
export async function syncLexicalSegments(client: Queryable, policy: SegmentPolicy = {}): Promise<SegmentSync> {
  const threshold = policy.flushThreshold ?? 4096;
  const mergeFactor = policy.mergeFactor ?? 8;
  if (!Number.isSafeInteger(threshold) || threshold < 1 || !Number.isSafeInteger(mergeFactor) || mergeFactor < 2) {
    throw new GroundkitError("INVALID_ARGUMENT", `BM25 segment policy: flushThreshold must be >= 1 and mergeFactor >= 2.`);
  }
  await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
  try {
    // Before any snapshot is taken: the transaction then sees every writer that finished before it.
    await client.query("LOCK TABLE chunks, bm25_postings IN SHARE MODE");
    const [segs] = await rowsOf<{ n: number; hi: number; ndocs: number; dead: number }>(
      client,
      `SELECT count(*)::int AS n, coalesce(max(hi), 0)::float8 AS hi, coalesce(sum(ndocs), 0)::float8 AS ndocs,
         coalesce(sum(dead), 0)::float8 AS dead FROM bm25_segments`,
    );
    const [tail] = await rowsOf<{ n: number; top: number }>(
      client,
      "SELECT count(*)::float8 AS n, coalesce(max(id), 0)::float8 AS top FROM chunks WHERE id > $1 AND dl > 0",
      [segs!.hi],
    );
    const [gen] = await rowsOf<{ g: number }>(client, "SELECT coalesce((SELECT value FROM meta WHERE key = 'generation'), '0')::float8 AS g");
    const generation = gen!.g;
    const flush = tail!.n > 0 && (tail!.n >= threshold || policy.flushTail === true);
    const rebuild =
      segs!.n > 0 && (policy.rebuild === true || segs!.n + (flush ? 1 : 0) > mergeFactor || segs!.dead * 4 > segs!.ndocs);
    let out: SegmentSync = { built: "none", segments: segs!.n, chunks: 0, generation };
    if (rebuild) {
      await client.query("DELETE FROM bm25_segments");
      const chunks = await buildSegment(client, 0, Math.max(segs!.hi, tail!.top), generation);
      out = { built: "all", segments: chunks > 0 ? 1 : 0, chunks, generation };
    } else if (flush) {
      const chunks = await buildSegment(client, segs!.hi, tail!.top, generation);
      out = { built: "tail", segments: segs!.n + 1, chunks, generation };
    }
    // Fresh statistics for the planner (rows it has never counted otherwise look like a scan's worth).
    if (out.built !== "none") await client.query("ANALYZE bm25_segments, bm25_segment_terms");
    await client.query("COMMIT");
    return out;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  }
}

/** Write one segment holding the postings of the chunks lo < id <= hi; returns its document count. */
async function buildSegment(client: Queryable, lo: number, hi: number, generation: number): Promise<number> {
  const docs = await rowsOf<{ id: number; dl: number }>(
    client,
    "SELECT id::float8 AS id, dl FROM chunks WHERE id > $1 AND id <= $2 AND dl > 0 ORDER BY id",
    [lo, hi],
  );
  const n = docs.length;
  if (n === 0) return 0;
  const rowids = new Float64Array(n);
  const dls = new Int32Array(n);
  const local = new Map<number, number>();
  docs.forEach((d, i) => {
    rowids[i] = d.id;
    dls[i] = d.dl;
    local.set(d.id, i);
  });
  const [seg] = await rowsOf<{ id: number }>(
    client,
    `INSERT INTO bm25_segments (id, uid, lo, hi, ndocs, generation, docs)
     VALUES (nextval('bm25_segment_ids'), $1, $2, $3, $4, $5, $6) RETURNING id::float8 AS id`,
    [randomInt(1, 2 ** 47), lo, rowids[n - 1]!, n, generation, encodeDocTable(rowids, dls, n)],
  );
  const postings = await rowsOf<{ term: string; chunks: number[]; tfs: number[] }>(
    client,
    `SELECT term, array_agg(chunk::float8 ORDER BY chunk) AS chunks, array_agg(tf ORDER BY chunk) AS tfs
     FROM bm25_postings WHERE chunk > $1 AND chunk <= $2 GROUP BY term`,
    [lo, rowids[n - 1]!],
  );
  let batch: { terms: string[]; dfs: number[]; maxTfs: number[]; minDls: number[]; data: Uint8Array[] } = fresh();
  for (const p of postings) {
    const df = p.chunks.length;
    const locals = new Int32Array(df);
    for (let i = 0; i < df; i++) {
      const l = local.get(p.chunks[i]!);
      if (l === undefined) throw new GroundkitError("STORE_CORRUPT", `BM25 postings: chunk ${p.chunks[i]} has postings but no length.`);
      locals[i] = l;
    }
    const enc = encodePostings(locals, p.tfs, df, dls);
    batch.terms.push(p.term);
    batch.dfs.push(df);
    batch.maxTfs.push(enc.maxTf);
    batch.minDls.push(enc.minDl);
    batch.data.push(enc.data);
    if (batch.terms.length >= TERMS_PER_STATEMENT) {
      await insertTerms(client, seg!.id, batch);
      batch = fresh();
    }
  }
  if (batch.terms.length > 0) await insertTerms(client, seg!.id, batch);
  return n;
}

function fresh() {
  return { terms: [] as string[], dfs: [] as number[], maxTfs: [] as number[], minDls: [] as number[], data: [] as Uint8Array[] };
}

async function insertTerms(client: Queryable, seg: number, b: ReturnType<typeof fresh>): Promise<void> {
  await client.query(
    `INSERT INTO bm25_segment_terms (seg, term, df, max_tf, min_dl, data)
     SELECT $1, * FROM unnest($2::text[], $3::int[], $4::int[], $5::int[], $6::bytea[])`,
    [seg, b.terms, b.dfs, b.maxTfs, b.minDls, b.data],
  );
}
