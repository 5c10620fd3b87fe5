/**
 * Reciprocal-rank fusion (Cormack, Clarke & Büttcher, 2009): each ranked list
 * votes `weight / (k + rank)` for every id it holds (rank 1-based), and ids
 * are ordered by their summed votes. It needs no score calibration between
 * BM25 and cosine similarity, which is why hybrid search uses it.
 */
import { GroundkitError } from "../core/errors.js";

/** One ranked list, best first, with an optional weight (default 1). */
export interface RankedList {
  ids: string[];
  weight?: number;
}

/** A fused result. */
export interface FusedHit {
  id: string;
  score: number;
}

/** Best score first; ties by id in code-unit order, so an order is fully determined by its scores. */
export function byScoreThenId(a: FusedHit, b: FusedHit): number {
  return b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The customary RRF constant. */
export const DEFAULT_RRF_K = 60;

/**
 * Fuse ranked lists. An id repeated within one list counts at its first
 * (best) rank only. Ties are broken by id in code-unit order, so the output is
 * fully determined by the input, and the same whatever order the lists come in. Lists with weight 0 contribute nothing but
 * are allowed (a side switched off).
 *
 * @throws GroundkitError INVALID_ARGUMENT for a non-positive or non-finite k, or a negative or non-finite weight
 * @example
 *   rrfFuse([{ ids: ["a", "b"] }, { ids: ["b", "c"], weight: 2 }]);
 *   // b: 1/62 + 2/61, a: 1/61, c: 2/62  ->  [b, c, a]
 */
export function rrfFuse(lists: ReadonlyArray<RankedList>, k: number = DEFAULT_RRF_K): FusedHit[] {
  if (!Number.isFinite(k) || k <= 0) {
    throw new GroundkitError("INVALID_ARGUMENT", `The RRF constant k must be a positive number, got ${k}.`);
  }
  const votes = new Map<string, number[]>();
  for (const list of lists) {
    const weight = list.weight ?? 1;
    if (!Number.isFinite(weight) || weight < 0) {
      throw new GroundkitError("INVALID_ARGUMENT", `An RRF weight must be a non-negative number, got ${weight}.`);
    }
    const seen = new Set<string>();
    let rank = 0;
    for (const id of list.ids) {
      if (seen.has(id)) continue;
      seen.add(id);
      rank++;
      if (weight === 0) continue;
      const vote = weight / (k + rank);
      const list = votes.get(id);
      if (list === undefined) votes.set(id, [vote]);
      else list.push(vote);
    }
  }
  return [...votes]
    // Summing the votes in sorted order makes the score independent of the order of the lists.
    .map(([id, v]) => ({ id, score: v.sort((a, b) => a - b).reduce((sum, x) => sum + x, 0) }))
    .sort(byScoreThenId);
}

/** qmd's top-rank bonus, on the scale of RRF votes (1/(k + rank) ≈ 0.016 at k = 60). */
const TOP_RANK_BONUS = { first: 0.05, second_third: 0.02 } as const;

/**
 * Add a bonus to ids a list ranks at the very top (rank 1: +0.05, ranks 2–3:
 * +0.02, the best one over all lists), as qmd does, so a hit one retriever is
 * sure of is not outvoted by ids both lists hold lower down; then re-sort.
 */
export function withTopRankBonus(fused: readonly FusedHit[], lists: ReadonlyArray<RankedList>): FusedHit[] {
  const best = new Map<string, number>();
  for (const list of lists) {
    if ((list.weight ?? 1) === 0) continue;
    const top = [...new Set(list.ids)].slice(0, 3);
    top.forEach((id, i) => best.set(id, Math.min(best.get(id) ?? Infinity, i + 1)));
  }
  return fused
    .map((h) => {
      const rank = best.get(h.id);
      const bonus = rank === 1 ? TOP_RANK_BONUS.first : rank !== undefined ? TOP_RANK_BONUS.second_third : 0;
      return { id: h.id, score: h.score + bonus };
    })
    .sort(byScoreThenId);
}
