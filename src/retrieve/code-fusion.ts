/**
 * Code chunks in hybrid fusion. The local embedding model is a prose model: on
 * code it finds the right definition about half as often as BM25, and rank
 * fusion lets its votes reorder BM25's confident top hits (ADR 0034). So the
 * code chunks among the candidates are ordered by a convex combination of
 * their normalised scores with a small dense share, which keeps how far BM25's
 * scores stand apart; they then fill the places code chunks hold in the fused
 * list, so where code sits among prose, and every prose hit, is unchanged.
 */
import type { ScoredChunk } from "../store/store.js";
import type { FusedHit } from "./fusion.js";
import { convexFuse } from "./score-fusion.js";

/** Dense share of the convex combination that orders code chunks when none is configured (ADR 0034). */
export const DEFAULT_CODE_DENSE_WEIGHT = 0.2;

/**
 * Reorder the code chunks of `fused` (best first) by `w · dense + (1 − w) · lexical`
 * over the code chunks of each pool, keeping the scores of the places they fill.
 * Only ids `fused` holds are placed (a side weighted 0 adds none); `idOf` is the
 * id `fused` holds for a chunk.
 *
 * @example
 *   // fused [c1 0.03, p 0.02, c2 0.01], BM25 far surer of c2: [c2 0.03, p 0.02, c1 0.01]
 */
export function reorderCodeChunks(
  fused: readonly FusedHit[],
  lexical: readonly ScoredChunk[],
  dense: readonly ScoredChunk[],
  isCode: (chunk: ScoredChunk) => boolean,
  denseWeight: number = DEFAULT_CODE_DENSE_WEIGHT,
  idOf: (chunk: ScoredChunk) => string = (c) => c.chunk_id,
): FusedHit[] {
  const codeOf = (pool: readonly ScoredChunk[]) => {
    const code = pool.filter(isCode);
    return { ids: code.map(idOf), scores: code.map((c) => c.score) };
  };
  const inFused = new Set(fused.map((h) => h.id));
  const codeOrder = convexFuse(codeOf(lexical), codeOf(dense), denseWeight)
    .map((h) => h.id)
    .filter((id) => inFused.has(id));
  const code = new Set(codeOrder);
  let next = 0;
  return fused.map((hit) => (code.has(hit.id) ? { id: codeOrder[next++]!, score: hit.score } : hit));
}
