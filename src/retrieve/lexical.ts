/**
 * BM25 retrieval through FTS5. Scores are positive, higher is better; ties
 * break on chunk id. A query none of whose terms occurs returns nothing.
 */
import type { ChunkFilter, ScoredChunk, Store } from "../store/store.js";
import { buildFtsQuery, queryTerms } from "./lexical-terms.js";

/** Top `limit` chunks by BM25 for a user query (already validated). */
export function lexicalSearch(store: Store, query: string, limit: number, filter?: ChunkFilter): ScoredChunk[] {
  const fts = buildFtsQuery(queryTerms(query));
  if (fts === undefined) return [];
  return store.searchLexical(fts, limit, filter);
}
