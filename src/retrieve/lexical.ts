/**
 * BM25 retrieval over our own persisted postings (Lucene/Anserini BM25,
 * k1 0.9, b 0.4). Scores are positive, higher is better; ties break on chunk
 * id. The query is analyzed exactly as chunks were (stopwords, Porter stems,
 * CJK bigrams), so any user string is just text: there is no query syntax.
 * A query none of whose terms occurs returns nothing.
 */
import type { ChunkFilter, ScoredChunk, Store } from "../store/store.js";
import { analyzeQuery } from "../analysis/analyzer.js";
import { ATTR, withSpan } from "../obs/tracing.js";

/** Top `limit` chunks by BM25 for a user query (already validated). */
export async function lexicalSearch(store: Store, query: string, limit: number, filter?: ChunkFilter): Promise<ScoredChunk[]> {
  const terms = withSpan("groundkit.search.analyze", {}, (span) => {
    const analyzed = analyzeQuery(query);
    span.setAttribute(ATTR.terms, analyzed.length);
    return analyzed;
  });
  if (terms.length === 0) return [];
  return withSpan("groundkit.search.lexical", { [ATTR.candidates]: limit }, async (span) => {
    const rows = await store.searchLexical(terms, limit, filter);
    span.setAttribute(ATTR.hits, rows.length);
    return rows;
  });
}
