/**
 * A BM25 search's hits with their rows, as the store returns them: scored in
 * one statement (lexical-search.ts), then the hits' chunk and document rows
 * fetched by id in a second. Rows are never updated in place (a replacement
 * deletes a document's rows and inserts new ones under new ids), so a row
 * fetched by id is exactly the row the scoring statement saw (a move rewrites
 * a document's source in place, and counts itself in meta `moves`, which keys the cache); if one of them
 * is gone (a writer replaced it in between, or a replica replayed that), the
 * search runs again, so every answer is one snapshot's top k, on a replica
 * too. Two round trips instead of a REPEATABLE READ transaction's four, and
 * one when this process holds every hit's row already (store/chunk-row-cache.ts):
 * the scoring statement's snapshot had them, and such a row never changes.
 */
import { GroundkitError } from "../../core/errors.js";
import { byScoreThenTie } from "../hit-order.js";
import type { ScoredChunk } from "../store.js";
import { CHUNK_COLUMNS, DOC_COLUMNS, joinedRowOfRaw, toScoredChunk, type JoinedRow } from "../rows.js";
import type { ChunkRowCache } from "../chunk-row-cache.js";
import type { AllowedChunksSql, PgLexicalSearch } from "./lexical-search.js";
import { rowsOf, type NamedStatement, type Queryable } from "./queryable.js";

/** Searches in a row whose hits a writer removed before their rows were read, before giving up. */
const ATTEMPTS = 5;

/** In joinedRowOfRaw's column order. */
const ROWS: NamedStatement = {
  name: "grk_bm25_rows_v1",
  text: `SELECT c.id::float8 AS rowid_, ${CHUNK_COLUMNS}, ${DOC_COLUMNS}
  FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE c.id = ANY($1::bigint[])`,
  rowMode: "array",
};

/** The best `k` chunks for the analyzed `terms`, with their rows, best first (equal scores in hit-order.ts's order). */
export async function searchLexicalRows(
  q: Queryable,
  engine: PgLexicalSearch,
  terms: readonly string[],
  k: number,
  allowed?: AllowedChunksSql,
  cache?: ChunkRowCache,
): Promise<ScoredChunk[]> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const { hits, table, moves } = await engine.find(q, terms, k, allowed);
    if (hits.length === 0) return [];
    // Rows are cached per incarnation of the collection and per count of in-place moves (a move rewrites a source).
    const scope = `${table}:${moves}`;
    const byId = new Map<number, JoinedRow>();
    const missing: number[] = [];
    for (const h of hits) {
      const row = cache?.get(scope, h.rowid);
      if (row) byId.set(h.rowid, row);
      else missing.push(h.rowid);
    }
    if (missing.length > 0) {
      const rows = (await rowsOf<unknown[]>(q, ROWS, [missing])).map(joinedRowOfRaw);
      if (rows.length < missing.length) continue;
      for (const r of rows) {
        byId.set(r.rowid_, r);
        cache?.put(scope, r.rowid_, r);
      }
    }
    return hits.map((h) => toScoredChunk(byId.get(h.rowid)!, h.score)).sort(byScoreThenTie);
  }
  throw new GroundkitError("STORE_BUSY", `The collection changed under ${ATTEMPTS} searches in a row; retry the search.`);
}
