/**
 * The rerank stage: a cross-encoder rescores the top candidates (sigmoid
 * scores in 0..1) and reorders them; ties keep the first-stage order.
 */
import type { ScoredChunk } from "../store/store.js";
import type { Reranker } from "./rerank/reranker.js";

/** Default number of first-stage candidates the cross-encoder sees. */
export const DEFAULT_RERANK_DEPTH = 50;

export async function rerankChunks(reranker: Reranker, query: string, candidates: ScoredChunk[], topK: number): Promise<ScoredChunk[]> {
  if (candidates.length === 0) return [];
  const scores = await reranker.rerank(
    query,
    candidates.map((c) => c.text),
  );
  return candidates
    .map((c, i) => ({ chunk: c, score: scores[i]!, order: i }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, topK)
    .map(({ chunk, score }) => ({ ...chunk, score }));
}
