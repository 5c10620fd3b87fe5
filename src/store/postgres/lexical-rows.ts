/**
 * A BM25 search's hits with their rows, as the store returns them: scored in
 * one statement (lexical-search.ts), then the hits' chunk and document rows
 * fetched by id in a second. Rows are never updated in place (a replacement
 * deletes a document's rows and inserts new ones under new ids), so a row
 * fetched by id is exactly the row the scoring statement saw; if one of them
 * is gone (a writer replaced it in between, or a replica replayed that), the
 * search runs again, so every answer is one snapshot's top k, on a replica
 * too. Two round trips instead of a REPEATABLE READ transaction's four.
 */
import { GroundkitError } from "../../core/errors.js";
import type { ScoredChunk } from "../store.js";
import { CHUNK_COLUMNS, DOC_COLUMNS, toChunk, type JoinedRow } from "../rows.js";
import type { AllowedChunksSql, PgLexicalSearch } from "./lexical-search.js";
import { rowsOf, type Queryable } from "./queryable.js";

/** Searches in a row whose hits a writer removed before their rows were read, before giving up. */
const ATTEMPTS = 5;

const ROWS_SQL = `SELECT c.id::float8 AS rowid_, ${CHUNK_COLUMNS}, ${DOC_COLUMNS}
  FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE c.id = ANY($1::bigint[])`;

/** The best `k` chunks for the analyzed `terms`, with their rows, best first (equal scores by row id). */
export async function searchLexicalRows(
  q: Queryable,
  engine: PgLexicalSearch,
  terms: readonly string[],
  k: number,
  allowed?: AllowedChunksSql,
): Promise<ScoredChunk[]> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const hits = await engine.search(q, terms, k, allowed);
    if (hits.length === 0) return [];
    const rows = await rowsOf<JoinedRow & { rowid_: number }>(q, ROWS_SQL, [hits.map((h) => h.rowid)]);
    if (rows.length < hits.length) continue;
    const byId = new Map(rows.map((r) => [r.rowid_, r]));
    return hits.map((h) => ({ ...toChunk(byId.get(h.rowid)!), score: h.score }));
  }
  throw new GroundkitError("STORE_BUSY", `The collection changed under ${ATTEMPTS} searches in a row; retry the search.`);
}
