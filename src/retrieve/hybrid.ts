/**
 * Hybrid retrieval: reciprocal-rank fusion of a deep lexical pool and a deep
 * dense pool. It abstains — returns nothing — when no query term occurs
 * lexically and the best dense hit is under the dense threshold: a page of
 * unrelated nearest neighbours is noise, and saying "nothing matched" lets the
 * caller abstain.
 */
import type { ScoredChunk } from "../store/store.js";
import { DEFAULT_RRF_K, rrfFuse } from "./fusion.js";

export interface HybridOptions {
  rrfK?: number | undefined;
  weights?: { lexical?: number | undefined; dense?: number | undefined } | undefined;
}

/** Candidate pool per side for a hybrid search returning `topK`. */
export function hybridPoolSize(topK: number): number {
  return Math.max(50, 4 * topK);
}

/**
 * Fuse the two pools (dense already thresholded) into the top `topK`, with the
 * fused RRF score as each hit's score.
 */
export function fuseHybrid(
  lexical: ScoredChunk[],
  dense: ScoredChunk[],
  topK: number,
  opts: HybridOptions = {},
): ScoredChunk[] {
  if (lexical.length === 0 && dense.length === 0) return [];
  const byId = new Map<string, ScoredChunk>();
  for (const c of [...lexical, ...dense]) if (!byId.has(c.chunk_id)) byId.set(c.chunk_id, c);
  const fused = rrfFuse(
    [
      { ids: lexical.map((c) => c.chunk_id), weight: opts.weights?.lexical ?? 1 },
      { ids: dense.map((c) => c.chunk_id), weight: opts.weights?.dense ?? 1 },
    ],
    opts.rrfK ?? DEFAULT_RRF_K,
  );
  return fused.slice(0, topK).map((f) => ({ ...byId.get(f.id)!, score: f.score }));
}
