/**
 * Hybrid retrieval: fusion of a deep lexical pool and a deep dense pool, by
 * reciprocal rank (the default) or by a convex combination of normalised
 * scores. It abstains — returns nothing — when no query term occurs lexically
 * and the best dense hit is under the dense threshold: a page of unrelated
 * nearest neighbours is noise, and saying "nothing matched" lets the caller
 * abstain.
 */
import { tieKey } from "../store/hit-order.js";
import type { ScoredChunk } from "../store/store.js";
import { DEFAULT_RRF_K, rrfFuse, withTopRankBonus, type FusedHit, type RankedList } from "./fusion.js";
import { convexFuse } from "./score-fusion.js";
import { isProgrammingLanguage } from "../core/code-languages.js";
import { reorderCodeChunks } from "./code-fusion.js";

/** How the two pools are combined. */
export const FUSION_METHODS = ["rrf", "convex"] as const;
export type FusionMethod = (typeof FUSION_METHODS)[number];

/** Dense share of a convex combination when none is configured. */
export const DEFAULT_CONVEX_DENSE_WEIGHT = 0.5;

export interface HybridOptions {
  fusion?: FusionMethod | undefined;
  rrfK?: number | undefined;
  weights?: { lexical?: number | undefined; dense?: number | undefined } | undefined;
  /** RRF only: qmd's bonus for ids a side ranks 1st–3rd. */
  rankBonus?: boolean | undefined;
  /** Convex only: the dense share w of `w · dense + (1 − w) · lexical`. */
  convexDenseWeight?: number | undefined;
  /** The dense share of the convex combination that orders code chunks among themselves (retrieve/code-fusion.ts). */
  codeDenseWeight?: number | undefined;
}

/** A chunk of a programming language's source (not configuration or data, not prose). */
function isCodeChunk(chunk: ScoredChunk): boolean {
  return chunk.code !== undefined && isProgrammingLanguage(chunk.code.lang);
}

/** Candidate pool per side for a hybrid search returning `topK`; `configured` deepens (never shrinks below topK). */
export function hybridPoolSize(topK: number, configured?: number): number {
  return configured === undefined ? Math.max(50, 4 * topK) : Math.max(topK, configured);
}

function fuseIds(lexical: ScoredChunk[], dense: ScoredChunk[], keyOf: (c: ScoredChunk) => string, opts: HybridOptions): FusedHit[] {
  return reorderCodeChunks(fuseAll(lexical, dense, keyOf, opts), lexical, dense, isCodeChunk, opts.codeDenseWeight, keyOf);
}

function fuseAll(lexical: ScoredChunk[], dense: ScoredChunk[], keyOf: (c: ScoredChunk) => string, opts: HybridOptions): FusedHit[] {
  const lexicalKeys = lexical.map(keyOf);
  const denseKeys = dense.map(keyOf);
  if (opts.fusion === "convex") {
    return convexFuse(
      { ids: lexicalKeys, scores: lexical.map((c) => c.score) },
      { ids: denseKeys, scores: dense.map((c) => c.score) },
      opts.convexDenseWeight ?? DEFAULT_CONVEX_DENSE_WEIGHT,
    );
  }
  const lists: RankedList[] = [
    { ids: lexicalKeys, weight: opts.weights?.lexical ?? 1 },
    { ids: denseKeys, weight: opts.weights?.dense ?? 1 },
  ];
  const fused = rrfFuse(lists, opts.rrfK ?? DEFAULT_RRF_K);
  return opts.rankBonus ? withTopRankBonus(fused, lists) : fused;
}

/**
 * Fuse the two pools (dense already thresholded) into the top `topK`, with the
 * fused score as each hit's score. Chunks are fused under {@link tieKey}, so equal
 * fused scores fall in the order the stores give equal scores, wherever the files are.
 */
export function fuseHybrid(
  lexical: ScoredChunk[],
  dense: ScoredChunk[],
  topK: number,
  opts: HybridOptions = {},
): ScoredChunk[] {
  if (lexical.length === 0 && dense.length === 0) return [];
  // Each candidate's key once (a chunk both sides found is two objects with one key).
  const keys = new Map<ScoredChunk, string>();
  const byKey = new Map<string, ScoredChunk>();
  for (const c of [...lexical, ...dense]) {
    const key = tieKey(c);
    keys.set(c, key);
    if (!byKey.has(key)) byKey.set(key, c);
  }
  return fuseIds(lexical, dense, (c) => keys.get(c)!, opts)
    .slice(0, topK)
    .map((f) => ({ ...byKey.get(f.id)!, score: f.score }));
}
