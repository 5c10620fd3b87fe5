/**
 * BM25 over postings kept in PostgreSQL tables: one `bm25_postings` row per
 * (term, chunk) with its tf and the chunk's length, and `bm25_stats` holding
 * N and the summed length. The terms come from the same analyzer as SQLite's
 * (analysis/chunk-tokens.ts, counted by store/bm25.ts), the idf and length
 * normalisation from store/bm25.ts, and the per-document sum
 * `w * tf / (tf + normA + normB * dl)` runs in SQL in float8, the same IEEE
 * arithmetic in the same order, so scores match the SQLite engine's to
 * rounding in the summation order. (PostgreSQL's ts_rank has no idf: not BM25.)
 *
 * Every statement runs in the caller's transaction.
 */
import { bm25Params, countTerms, queryIdfs } from "../bm25.js";
import type { PgRunner } from "./pg-pool.js";

/** One chunk's postings, as arrays ready for unnest. */
export interface ChunkPostings {
  terms: string[];
  tfs: number[];
  dl: number;
}

/** A document's token stream (analysis/chunk-tokens.ts) as the rows it adds. */
export function postingsOf(tokens: readonly string[]): ChunkPostings {
  const { terms, tfs } = countTerms(tokens);
  return { terms, tfs, dl: tokens.length };
}

/** The BM25 weights of one query, from one snapshot's statistics. */
export interface QueryWeights {
  terms: string[];
  weights: number[];
  normA: number;
  normB: number;
}

/**
 * Read N, the summed length and each term's df (in the caller's snapshot) and
 * turn them into per-term weights idf * qtf * (k1 + 1); undefined when no
 * term occurs (the query matches nothing).
 */
export async function queryWeights(conn: PgRunner, terms: string[], qtfs: number[], k1: number, b: number): Promise<QueryWeights | undefined> {
  const rows = (await conn.query<{ docs: number; total_len: number; df: number }>(
    `SELECT s.docs, s.total_len, (SELECT count(*) FROM bm25_postings p WHERE p.term = q.t) AS df
     FROM bm25_stats s, unnest($1::text[]) WITH ORDINALITY AS q(t, i) ORDER BY q.i`,
    [terms],
  )).rows;
  const docs = rows[0]?.docs ?? 0;
  if (docs === 0) return undefined;
  const dfs = rows.map((r) => r.df);
  if (dfs.every((df) => df === 0)) return undefined;
  const idfs = queryIdfs(docs, dfs, qtfs);
  const p = bm25Params(k1, b, docs, rows[0]!.total_len);
  const kept = terms.flatMap((t, i) => (dfs[i]! > 0 ? [{ t, w: idfs[i]! * (k1 + 1) }] : []));
  return { terms: kept.map((x) => x.t), weights: kept.map((x) => x.w), normA: p.normA, normB: p.normB };
}

/** The five parameters of {@link scoringSql}, in order. */
export function scoringParams(w: QueryWeights, limit: number): unknown[] {
  return [w.terms, w.weights, w.normA, w.normB, limit];
}

/**
 * A SELECT of (chunk, score) for the best `limit` chunks, best first, equal
 * scores by chunk row id ascending (as the SQLite engine's top-k), over
 * {@link scoringParams}. `allowed` is an optional predicate over `p.chunk`
 * whose placeholders follow those five.
 */
export function scoringSql(allowed?: string): string {
  return `SELECT p.chunk, sum(w.w * p.tf / (p.tf + $3::float8 + $4::float8 * p.dl)) AS score
      FROM bm25_postings p JOIN unnest($1::text[], $2::float8[]) AS w(term, w) ON w.term = p.term
      WHERE p.term = ANY($1::text[]) ${allowed ? `AND ${allowed}` : ""}
      GROUP BY p.chunk ORDER BY score DESC, p.chunk LIMIT $5`;
}
