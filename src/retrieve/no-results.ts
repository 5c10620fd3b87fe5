/**
 * Abstaining, and saying why: a score floor (`min_score`) drops weak hits,
 * and an empty result says which of the usual causes it was, so "nothing
 * matched" is never a shrug: the query had no searchable words, none of its
 * terms is in the collection, the filters left no match, or every hit scored
 * under the floor.
 */
import { analyzeQuery } from "../analysis/analyzer.js";
import { GroundkitError } from "../core/errors.js";
import type { ScoredChunk, Store } from "../store/store.js";
import type { SearchMode } from "./search-pipeline.js";

/** Why a search returned nothing. */
export interface NoResults {
  reason: "no_searchable_terms" | "terms_not_in_index" | "filtered_out" | "below_min_score" | "not_similar_enough";
  detail: string;
  /** With `below_min_score`: the best score the floor dropped. */
  best_score?: number | undefined;
}

/** Validate a score floor: a finite number (scores depend on the mode: BM25 > 0, cosine -1..1, RRF > 0). */
export function checkMinScore(minScore: number | undefined): number | undefined {
  if (minScore === undefined) return undefined;
  if (typeof minScore !== "number" || !Number.isFinite(minScore)) {
    throw new GroundkitError("INVALID_ARGUMENT", `min_score must be a finite number; got ${String(minScore)}.`);
  }
  return minScore;
}

/** Keep rows scoring at least `minScore`; also report the best dropped score. */
export function applyMinScore(rows: ScoredChunk[], minScore: number | undefined): { kept: ScoredChunk[]; bestDropped?: number } {
  if (minScore === undefined) return { kept: rows };
  const kept = rows.filter((r) => r.score >= minScore);
  const dropped = rows.filter((r) => r.score < minScore);
  return dropped.length > 0 ? { kept, bestDropped: Math.max(...dropped.map((r) => r.score)) } : { kept };
}

/** What the empty search was. */
export interface EmptySearch {
  query: string;
  mode: SearchMode;
  filtered: boolean;
  minScore: number | undefined;
  /** The best score the floor dropped, when it dropped any. */
  bestDropped: number | undefined;
  /** The dense side's similarity floor. */
  denseMinScore: number;
}

/** Say why a search returned nothing (one extra unfiltered BM25 probe at most). */
export async function explainNoResults(store: Store, s: EmptySearch): Promise<NoResults> {
  if (s.bestDropped !== undefined) {
    return {
      reason: "below_min_score",
      detail: `Every hit scored below the floor min_score ${s.minScore}; the best scored ${s.bestDropped.toFixed(4)}.`,
      best_score: s.bestDropped,
    };
  }
  const terms = [...new Set(analyzeQuery(s.query))];
  if (s.mode === "dense") {
    return {
      reason: s.filtered ? "filtered_out" : "not_similar_enough",
      detail: s.filtered
        ? `No chunk the filters allow is similar enough to the query (cosine >= ${s.denseMinScore}).`
        : `No chunk is similar enough to the query (cosine >= ${s.denseMinScore}).`,
    };
  }
  if (terms.length === 0) {
    return {
      reason: "no_searchable_terms",
      detail: "The query has no searchable words: BM25 drops stopwords (the, of, and, …) and punctuation.",
    };
  }
  if ((await store.searchLexical(terms, 1)).length === 0) {
    return {
      reason: "terms_not_in_index",
      detail: `None of the query's terms occurs in the collection (as analyzed: ${terms.slice(0, 8).join(", ")}${terms.length > 8 ? ", …" : ""}).`,
    };
  }
  return {
    reason: "filtered_out",
    detail: "The query's terms occur in the collection, but in no chunk the filters allow.",
  };
}
