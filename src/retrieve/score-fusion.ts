/**
 * Convex combination of normalised scores: each side's scores are min-max
 * scaled to [0, 1] over its own pool, and an id scores
 * `w · dense + (1 − w) · lexical` (a side that did not return it adds 0).
 * Unlike RRF it keeps how far apart scores are, not only their order; BM25 and
 * cosine have no common scale, which the per-query scaling stands in for.
 */
import { GroundkitError } from "../core/errors.js";
import { byScoreThenId, type FusedHit } from "./fusion.js";

/** One side's pool: ids with their raw scores (higher is better). */
export interface ScoredList {
  ids: readonly string[];
  scores: readonly number[];
}

/** Min-max scale to [0, 1]; a pool whose scores are all equal scales to 1. */
function normalised(list: ScoredList): Map<string, number> {
  let min = Infinity;
  let max = -Infinity;
  for (const s of list.scores) {
    if (s < min) min = s;
    if (s > max) max = s;
  }
  const span = max - min;
  const out = new Map<string, number>();
  list.ids.forEach((id, i) => {
    // An id repeated within one pool keeps its first (best) score.
    if (!out.has(id)) out.set(id, span > 0 ? (list.scores[i]! - min) / span : 1);
  });
  return out;
}

/**
 * Fuse a lexical and a dense pool by a convex combination of their normalised
 * scores; ties are broken by id in code-unit order.
 *
 * @throws GroundkitError INVALID_ARGUMENT for a dense weight outside [0, 1]
 * @example
 *   convexFuse({ ids: ["a", "b"], scores: [9, 3] }, { ids: ["b"], scores: [0.8] }, 0.5);
 *   // a: 0.5·1 + 0 = 0.5, b: 0.5·0 + 0.5·1 = 0.5  ->  [a, b] (tie, by id)
 */
export function convexFuse(lexical: ScoredList, dense: ScoredList, denseWeight: number): FusedHit[] {
  if (!Number.isFinite(denseWeight) || denseWeight < 0 || denseWeight > 1) {
    throw new GroundkitError("INVALID_ARGUMENT", `The convex dense weight must be within [0, 1], got ${denseWeight}.`);
  }
  const lex = normalised(lexical);
  const den = normalised(dense);
  const ids = new Set([...lex.keys(), ...den.keys()]);
  return [...ids]
    .map((id) => ({ id, score: (1 - denseWeight) * (lex.get(id) ?? 0) + denseWeight * (den.get(id) ?? 0) }))
    .sort(byScoreThenId);
}
