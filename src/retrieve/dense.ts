/**
 * Dense retrieval: embed the query, take the nearest chunks by cosine
 * similarity (filters applied inside the KNN), and drop those under the
 * score threshold.
 */
import type { EmbeddingProvider } from "../embed/provider.js";
import { ATTR, withSpan } from "../obs/tracing.js";
import type { ChunkFilter, ScoredChunk, Store } from "../store/store.js";

/** Default minimum cosine similarity for a dense hit, chosen on the golden set for the local model (docs/retrieval-quality.md). */
export const DEFAULT_DENSE_MIN_SCORE = 0.3;

export async function denseSearch(
  store: Store,
  provider: EmbeddingProvider,
  query: string,
  limit: number,
  opts: { filter?: ChunkFilter | undefined; minScore?: number | undefined } = {},
): Promise<ScoredChunk[]> {
  return withSpan("groundkit.search.dense", { [ATTR.candidates]: limit }, async (span) => {
    const vector = await provider.embedQuery(query);
    const min = opts.minScore ?? DEFAULT_DENSE_MIN_SCORE;
    const rows = (await store.searchVectors(vector, limit, opts.filter)).filter((c) => c.score >= min);
    span.setAttribute(ATTR.hits, rows.length);
    return rows;
  });
}
