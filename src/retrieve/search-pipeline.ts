/**
 * The search pipeline: the one place that orders the retrieval stages. Mode
 * dispatch (BM25, dense, hybrid), pool depths, fusion and the optional rerank
 * live here; the collection only supplies its store, its embedder and its
 * reranker.
 */
import type { EmbeddingProvider } from "../embed/provider.js";
import { ATTR, withSpan } from "../obs/tracing.js";
import type { ScoredChunk, Store } from "../store/store.js";
import { denseSearch } from "./dense.js";
import { checkFilterKeys, parseFilters, toChunkFilter } from "./filters.js";
import { fuseHybrid, hybridPoolSize, type FusionMethod } from "./hybrid.js";
import { lexicalSearch } from "./lexical.js";
import { DEFAULT_RERANK_DEPTH, rerankChunks } from "./rerank-stage.js";
import type { Reranker } from "./rerank/reranker.js";

/** The retrieval modes, once for every surface (CLI choices, tool schemas, the library). */
export const SEARCH_MODES = ["bm25", "dense", "hybrid"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** Tuning for dense, hybrid and rerank (defaults in brackets). */
export interface RetrievalSettings {
  /** Minimum cosine similarity for a dense hit [0.3]. */
  denseMinScore?: number | undefined;
  /** Reciprocal-rank-fusion constant [60]. */
  rrfK?: number | undefined;
  /** Per-side fusion weights [1, 1]. */
  hybridWeights?: { lexical?: number | undefined; dense?: number | undefined } | undefined;
  /** How hybrid combines its pools [rrf]. */
  fusion?: FusionMethod | undefined;
  /** RRF only: add qmd's top-rank bonus [false]. */
  rankBonus?: boolean | undefined;
  /** Convex only: the dense share of the combination [0.5]. */
  convexDenseWeight?: number | undefined;
  /** The dense share of the convex combination that orders code chunks among themselves [0.2]. */
  codeDenseWeight?: number | undefined;
  /** Candidates per side for hybrid [max(50, 4 × depth)]. */
  hybridPool?: number | undefined;
  /** First-stage candidates the cross-encoder rescores [50]. */
  rerankDepth?: number | undefined;
}

/** What one ranking asks for. */
export interface RankRequest {
  /** Retrieval mode (default bm25). */
  mode?: SearchMode | undefined;
  /** Filter strings such as `path=guides/**` (ANDed), parsed and checked here. */
  filters?: readonly string[] | undefined;
  /** Rescore the top candidates with the reranker. */
  rerank?: boolean | undefined;
}

/** What the pipeline needs from a collection; the embedder and reranker are obtained only when a mode needs them. */
export interface RankSources {
  store: Store;
  embedder: () => Promise<EmbeddingProvider>;
  reranker: () => Promise<Reranker>;
  settings: RetrievalSettings;
}

/** Rank chunks for a query: BM25, dense or hybrid, then an optional rerank; at most `limit` rows. */
export async function rankChunks(sources: RankSources, query: string, limit: number, req: RankRequest = {}): Promise<ScoredChunk[]> {
  const { store, settings } = sources;
  const filters = parseFilters(req.filters);
  await checkFilterKeys(filters, () => store.metadataFields());
  const filter = toChunkFilter(filters);
  const mode = req.mode ?? "bm25";
  const reranker = req.rerank ? await sources.reranker() : undefined;
  const depth = reranker ? Math.max(limit, settings.rerankDepth ?? DEFAULT_RERANK_DEPTH) : limit;
  let rows: ScoredChunk[];
  if (mode === "bm25") {
    rows = await lexicalSearch(store, query, depth, filter);
  } else {
    const provider = await sources.embedder();
    const denseOpts = { filter, minScore: settings.denseMinScore };
    if (mode === "dense") {
      rows = await denseSearch(store, provider, query, depth, denseOpts);
    } else {
      const pool = hybridPoolSize(depth, settings.hybridPool);
      // Both at once: on a server-backed store the BM25 statements run while the query is embedded.
      const [lexical, dense] = await Promise.all([lexicalSearch(store, query, pool, filter), denseSearch(store, provider, query, pool, denseOpts)]);
      rows = withSpan("groundkit.search.fuse", { [ATTR.candidates]: lexical.length + dense.length }, (span) => {
        const fused = fuseHybrid(lexical, dense, depth, {
          fusion: settings.fusion,
          rrfK: settings.rrfK,
          weights: settings.hybridWeights,
          rankBonus: settings.rankBonus,
          convexDenseWeight: settings.convexDenseWeight,
          codeDenseWeight: settings.codeDenseWeight,
        });
        span.setAttribute(ATTR.hits, fused.length);
        return fused;
      });
    }
  }
  if (!reranker) return rows.slice(0, limit);
  const candidates = rows;
  return withSpan("groundkit.search.rerank", { [ATTR.candidates]: candidates.length }, async (span) => {
    const reranked = await rerankChunks(reranker, query, candidates, limit);
    span.setAttribute(ATTR.hits, reranked.length);
    return reranked;
  });
}
