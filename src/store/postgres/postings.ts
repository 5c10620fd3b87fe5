/**
 * The BM25 postings PostgreSQL keeps as rows: one `bm25_postings` row per
 * (term, chunk) with its tf and the chunk's length (and `bm25_stats` holding N
 * and the summed length), from the same analyzer as SQLite's
 * (analysis/chunk-tokens.ts, counted by store/bm25.ts). They are the truth the
 * segments that searches score are built from (lexical-segments.ts, ADR 0020).
 */
import { countTerms } from "../bm25.js";

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
